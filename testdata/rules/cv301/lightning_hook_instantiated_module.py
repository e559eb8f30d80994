# The Lightning trainer calls training_step on the module the program
# builds: its `if batch is None: return` (a collate function that drops
# bad samples) skips the synced log_dict on that rank (nougat's module,
# which its train.py instantiates and fits).
import lightning.pytorch as pl
import torch


class Model(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        if batch is None:
            return
        loss = self.layer(batch).sum()
        self.log_dict({"train/loss": loss}, sync_dist=True)  # want CV301 "LightningModule.log_dict .*runs only on the ranks that do not leave early"
        return loss


def main():
    model = Model()
    trainer = pl.Trainer(devices=8, strategy="ddp")
    trainer.fit(model)
