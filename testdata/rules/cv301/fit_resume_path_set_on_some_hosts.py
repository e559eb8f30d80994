# The checkpoint to resume from is set only where this host finds it:
# hosts without it train from the start, the others resume.
import argparse
import os

from pytorch_lightning.trainer import Trainer

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    opt, unknown = parser.parse_known_args()
    ckpt = os.path.join(opt.resume, "checkpoints", "last.ckpt")
    if os.path.isfile(ckpt):
        opt.ckpt_path = ckpt
    trainer = Trainer(strategy="ddp", devices=8, num_nodes=2, accelerator="gpu")
    if hasattr(opt, "ckpt_path"):
        trainer.fit(None, ckpt_path=opt.ckpt_path)  # want CV301 "file system check"
    else:
        trainer.fit(None)
