# A file check that only picks which path to resume from (the file
# given, or the last checkpoint of the directory given); both picks are
# never empty and every host sets the path, so every rank resumes
# (Make-An-Audio-2's main).
import argparse
import os

from pytorch_lightning.trainer import Trainer

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    opt, unknown = parser.parse_known_args()
    if opt.resume:
        if not os.path.exists(opt.resume):
            raise ValueError("Cannot find {}".format(opt.resume))
        if os.path.isfile(opt.resume):
            ckpt = opt.resume
        else:
            ckpt = os.path.join(opt.resume, "checkpoints", "last.ckpt")
        opt.ckpt_path = ckpt
    trainer = Trainer(strategy="ddp", devices=8, num_nodes=2, accelerator="gpu")
    if hasattr(opt, "ckpt_path"):
        trainer.fit(None, ckpt_path=opt.ckpt_path)
    else:
        trainer.fit(None)
