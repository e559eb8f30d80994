# A LightningModule's training step leaves on this rank's own NaN loss,
# before the all-gather and the manual backward the other ranks issue.
import torch
from pytorch_lightning import LightningModule, Trainer


class M(LightningModule):
    def __init__(self):
        super().__init__()
        self.model = torch.nn.Linear(4, 1)
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        opt.zero_grad()
        loss = self.model(batch).sum()
        if torch.isnan(loss):
            return None
        n = self.all_gather(batch.size(0))  # want CV301 "NaN"
        self.manual_backward(loss / n.sum())
        opt.step()
        return loss


class Agreed(LightningModule):
    def __init__(self):
        super().__init__()
        self.model = torch.nn.Linear(4, 1)
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        loss = self.model(batch).sum()
        bad = self.all_gather(torch.isnan(loss)).any()
        if bad:
            return None
        self.manual_backward(loss)
        opt.step()
        return loss


if __name__ == "__main__":
    Trainer(strategy="ddp", devices=2).fit(M())
    Trainer(strategy="ddp", devices=2).fit(Agreed())
