import lightning.pytorch as pl
import torch
from lightning.pytorch.callbacks import ModelCheckpoint


class LitModel(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(32, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.net(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = torch.nn.functional.mse_loss(self.net(x), y)
        self.log("val_loss", loss)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())


def main():
    ckpt_cb = ModelCheckpoint(monitor="val_loss", save_top_k=1, mode="min")
    trainer = pl.Trainer(accelerator="gpu", devices=8, strategy="ddp", callbacks=[ckpt_cb], max_epochs=50)
    trainer.fit(LitModel(), datamodule=build_datamodule())


if __name__ == "__main__":
    main()
