# The loss comes from the model's forward called by name
# (self.model.forward(images, targets), DeepForest's training_step): the
# rank whose batch gives a non-finite loss returns before the sync_dist
# log the other ranks all-reduce.
import torch
import pytorch_lightning as pl


class Detector(pl.LightningModule):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def training_step(self, batch, batch_idx):
        images, targets = batch
        loss_dict = self.model.forward(images, targets)
        losses = sum(loss_dict.values())
        if not torch.isfinite(losses):
            trainable = [p for p in self.model.parameters() if p.requires_grad]
            return 0.0 * sum(p.sum() for p in trainable)
        self.log("train_loss", losses.detach(), on_epoch=True, sync_dist=True)  # want CV301 "NaN"
        return losses

    def validation_step(self, batch, batch_idx):
        images, targets = batch
        preds = self.model.forward(images)
        self.log("n", float(len(preds)), sync_dist=True)
        return preds


if __name__ == "__main__":
    pl.Trainer(strategy="ddp", devices=8, num_nodes=2).fit(Detector(torch.nn.Linear(4, 4)))
