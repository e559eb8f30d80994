# Under ZeRO-2 every rank holds whole parameters: generate() gathers
# nothing, and ranks may stop at different lengths.
import pytorch_lightning as pl
import torch
from pytorch_lightning import Trainer
from transformers import AutoModelForCausalLM


class Captioner(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.lm = AutoModelForCausalLM.from_pretrained("facebook/galactica-125m")

    @torch.no_grad()
    def validation_step(self, batch, batch_idx):
        return self.lm.generate(input_ids=batch["input_ids"], max_length=256)


def main(val_loader):
    trainer = Trainer(accelerator="gpu", devices=4, strategy="deepspeed_stage_2")
    trainer.validate(Captioner(), val_loader)
