# DeiT-style auto-resume: the checkpoint path is kept on the config only
# where this host finds the file, and the resume it gates issues
# collectives on those hosts only.
import os

import torch
import torch.distributed as dist


def main(cfg, x):
    if os.path.exists(os.path.join(cfg.output, "checkpoint.pth")):
        cfg.resume = os.path.join(cfg.output, "checkpoint.pth")
    if cfg.resume:
        dist.all_reduce(x)  # want CV301 "file system check"


def with_fstring(args, x):
    last = f"{args.output_dir}/last.pth"
    if os.path.isfile(last):
        args.resume = last
    if args.resume:
        dist.broadcast(x, 0)  # want CV301 "file system check"
