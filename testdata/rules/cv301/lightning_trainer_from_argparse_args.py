# A Trainer made by Trainer.from_argparse_args (Lightning < 2.0) is a
# Trainer: its save_checkpoint ends in a barrier that rank 0 alone
# reaches here (latent-diffusion's interrupt handler).
import argparse

from pytorch_lightning import Trainer


def run(model, data):
    opt = argparse.Namespace(devices=2, strategy="ddp")
    trainer = Trainer.from_argparse_args(opt)

    def melk():
        if trainer.global_rank == 0:
            trainer.save_checkpoint("last.ckpt")  # want CV301 "save_checkpoint"

    try:
        trainer.fit(model, data)
    except KeyboardInterrupt:
        melk()
        raise
