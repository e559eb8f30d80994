import lightning.pytorch as pl
import torch


class MultiTaskModel(pl.LightningModule):
    def __init__(self, heads):
        super().__init__()
        self.backbone = torch.nn.Linear(128, 128)
        self.heads = torch.nn.ModuleDict(heads)

    def validation_step(self, batch, batch_idx):
        feats = self.backbone(batch["x"])
        per_task = {}
        for task in batch["tasks"]:
            per_task[task] = torch.nn.functional.mse_loss(self.heads[task](feats), batch[task])
        self.log_dict({f"val_loss_{k}": v for k, v in per_task.items()}, sync_dist=True)
