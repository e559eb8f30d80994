# R4 (Lightning-AI/pytorch-lightning#19106): collectives issued once per
# element of this rank's batch. Ranks whose batches hold different tasks
# log different keys, and sync_dist all-reduces each key.
import lightning.pytorch as pl
import torch
import torch.distributed as dist


class MultiTask(pl.LightningModule):
    def validation_step(self, batch, batch_idx):
        per_task = {}
        for task in batch["tasks"]:
            per_task[task] = self.loss(batch, task)
        self.log_dict({f"val_{k}": v for k, v in per_task.items()}, sync_dist=True)  # want CV301 "log_dict.*once per element of .*per_task.items"

    def test_step(self, batch, batch_idx):
        for name in batch.metric_names:
            self.log(name, self.metric(batch, name), sync_dist=True)  # want CV301 "once per element of `batch.metric_names`.*comes from the batch this rank loaded"


def evaluate(model, loader):
    for batch in loader:
        for label in batch["labels"].unique():
            part = model(batch["x"][batch["labels"] == label])
            dist.all_reduce(part)  # want CV301 "once per element of `batch\[\"labels\"\].unique\(\)`"
