# Lightning's ZeRO-3 strategy partitions the module's parameters, and
# builds no HfDeepSpeedConfig, so transformers' generate() does not turn
# synced_gpus on by itself: each rank stops at its own end-of-sequence
# token while the others wait in the next parameter all-gather.
import pytorch_lightning as pl
import torch
from pytorch_lightning import Trainer
from pytorch_lightning.strategies import DeepSpeedStrategy
from transformers import AutoModelForCausalLM


class Captioner(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.lm = AutoModelForCausalLM.from_pretrained("facebook/galactica-125m")

    def training_step(self, batch, batch_idx):
        return self.lm(**batch).loss

    @torch.no_grad()
    def validation_step(self, batch, batch_idx):
        return self.lm.generate(input_ids=batch["input_ids"], max_length=256)  # want CV301 "ZeRO-3"

    @torch.no_grad()
    def test_step(self, batch, batch_idx):
        return self.lm.generate(input_ids=batch["input_ids"], max_length=256, synced_gpus=True)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)


def main(val_loader):
    trainer = Trainer(accelerator="gpu", devices=4, strategy=DeepSpeedStrategy(stage=3))
    trainer.validate(Captioner(), val_loader)
