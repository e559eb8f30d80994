# Trainer.save_checkpoint ends in a barrier (and gathers sharded state):
# called on one rank it waits for the others. The trainer reached as a
# LightningModule's self.trainer, and one made by Lightning 1.x's
# Trainer.from_argparse_args (taming-transformers' melk).
import os

import pytorch_lightning as pl
from pytorch_lightning.trainer import Trainer


class TransducerModule(pl.LightningModule):
    def __init__(self, ckpt_path):
        super().__init__()
        self.ckpt_path = ckpt_path

    def on_validation_end(self):
        if self.local_rank == 0:
            self.trainer.save_checkpoint(os.path.join(self.ckpt_path, "last.ckpt"))  # want CV301 "self.local_rank == 0"
        self.trainer.strategy.barrier()


class Plain:
    # Not a LightningModule: its trainer attribute is whatever it was given.
    def __init__(self, trainer):
        self.trainer = trainer

    def save(self, rank):
        if rank == 0:
            self.trainer.save_checkpoint("plain.ckpt")


def main(opt):
    trainer = Trainer.from_argparse_args(opt)
    if trainer.global_rank == 0:
        trainer.save_checkpoint(os.path.join("ckpt", "last.ckpt"))  # want CV301 "trainer.global_rank == 0"
    trainer.fit(None)
