# One call of the training loop on every rank, but the checkpoint it
# resumes from is what this host's file system showed: a host that sees
# none trains from step 0, the others run the remaining steps only
# (OmniTokenizer's resume from a directory listing; an HF script's
# last-checkpoint check).
import os

import lightning.pytorch as pl
from transformers import Trainer


def train_hf(model, args, ds):
    trainer = Trainer(model=model, args=args, train_dataset=ds)
    last = None
    if os.path.isdir("out/checkpoint-100"):
        last = "out/checkpoint-100"
    trainer.train(resume_from_checkpoint=last)  # want CV301 "Trainer.train resuming from a checkpoint .* runs only when `last` holds, which depends on a file system check"


def train_lightning(root, model, data):
    ckpt = None
    if os.path.exists(root):
        files = os.listdir(root)
        if len(files) > 0:
            ckpt = os.path.join(root, sorted(files)[-1])
    trainer = pl.Trainer(accelerator="gpu", devices=8, num_nodes=4, strategy="ddp", max_steps=100000)
    trainer.fit(model, data, ckpt_path=ckpt)  # want CV301 "Trainer.fit resuming from a checkpoint .* runs only when `ckpt` holds"


def train_lightning_v1(root, model, data, nodes):
    # Lightning 1.x: the Trainer is built to resume from what this host's
    # check found, and its fit() restores that step.
    ckpt = os.path.join(root, "last.ckpt")
    resume = ckpt if os.path.exists(ckpt) else None
    trainer = pl.Trainer(accelerator="gpu", devices=8, num_nodes=nodes, resume_from_checkpoint=resume)
    trainer.fit(model, data)  # want CV301 "Trainer.fit resuming from a checkpoint .* runs only when `resume` holds"


def train_lightning_fixed(model, data, nodes, ckpt):
    # A path the launch passed in resumes every rank alike.
    trainer = pl.Trainer(accelerator="gpu", devices=8, num_nodes=nodes, resume_from_checkpoint=ckpt)
    trainer.fit(model, data)
