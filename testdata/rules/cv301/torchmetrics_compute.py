# A TorchMetrics metric's compute() gathers the metric's states from every
# process: computed on the main process only, it waits for ranks that
# never join.
import torch.distributed as dist
import torchmetrics
from lightning.pytorch import LightningModule
from torchmetrics.classification import MulticlassAccuracy


class Model(LightningModule):
    def __init__(self):
        super().__init__()
        self.val_acc = torchmetrics.Accuracy(task="multiclass", num_classes=10)

    def on_validation_epoch_end(self):
        if self.trainer.is_global_zero:
            print(self.val_acc.compute())  # want CV301 "compute"


def evaluate(preds, target):
    metric = MulticlassAccuracy(num_classes=3)
    metric.update(preds, target)
    if dist.get_rank() == 0:
        return metric.compute()  # want CV301 "compute"
    return None
