# A Lightning Trainer that names no nodes runs all its ranks on one node
# (Lightning's SLURM and torchrun environments refuse a world size other
# than devices × num_nodes): they list one file system, and resume from
# the same checkpoint (AudioLDM's trainers). num_nodes=1 says the same.
# With more nodes, or a Trainer built from the command line, see
# fs_trainer_resume_argument.py and lightning_trainer_from_argparse_args.py.
import os

import pytorch_lightning as pl
import torch


def main(model, loader, ckpt_dir):
    os.makedirs(ckpt_dir, exist_ok=True)
    resume = None
    if len(os.listdir(ckpt_dir)) > 0:
        resume = os.path.join(ckpt_dir, sorted(os.listdir(ckpt_dir))[-1])
    trainer = pl.Trainer(accelerator="gpu", devices=torch.cuda.device_count(), strategy="ddp")
    trainer.fit(model, loader, ckpt_path=resume)
    again = pl.Trainer(accelerator="gpu", devices=8, num_nodes=1)
    if os.path.exists(os.path.join(ckpt_dir, "last.ckpt")):
        again.fit(model, loader, ckpt_path=os.path.join(ckpt_dir, "last.ckpt"))
    else:
        again.fit(model, loader)
