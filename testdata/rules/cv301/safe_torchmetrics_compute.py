# compute() on every rank, the printing on one; update() communicates
# nothing.
import torch.distributed as dist
import torchmetrics
from lightning.pytorch import LightningModule


class Model(LightningModule):
    def __init__(self):
        super().__init__()
        self.val_acc = torchmetrics.Accuracy(task="multiclass", num_classes=10)

    def validation_step(self, batch, batch_idx):
        preds, target = batch
        if self.trainer.is_global_zero:
            self.val_acc.update(preds, target)

    def on_validation_epoch_end(self):
        acc = self.val_acc.compute()
        if self.trainer.is_global_zero:
            print(acc)
        if dist.get_rank() == 0:
            print(torchmetrics.functional.accuracy)
