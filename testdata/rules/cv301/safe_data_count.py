# A fixed set of keys on every rank, loops over the batch's own fields
# (the same on every rank after collation), and logging without sync_dist.
import lightning.pytorch as pl
import torch
import torch.distributed as dist


class MultiTask(pl.LightningModule):
    def validation_step(self, batch, batch_idx):
        per_task = {}
        for task in self.heads:
            if task in batch["tasks"]:
                per_task[task] = self.loss(batch, task)
            else:
                per_task[task] = torch.zeros(())
        self.log_dict({f"val_{k}": v for k, v in per_task.items()}, sync_dist=True)

    def test_step(self, batch, batch_idx):
        for key, value in batch.items():
            self.log(key, value.float().mean(), sync_dist=True)
        for name in batch["metric_names"]:
            self.log(name, self.metric(batch, name))  # no sync_dist: local
        per_sample = {i: x for i, x in enumerate(batch["x"])}
        self.log_dict({"n": float(len(per_sample))}, sync_dist=True)


def evaluate(model, loader, num_classes):
    for batch in loader:
        for label in range(num_classes):
            part = model(batch["x"][batch["labels"] == label])
            dist.all_reduce(part)
