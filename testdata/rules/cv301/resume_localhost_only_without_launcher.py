# The rendezvous is set to localhost only in the arm for a plain `python
# train.py` run (DINO's init_distributed_mode); under torchrun or SLURM
# the launcher's MASTER_ADDR can name another host, so each host's own
# view of the checkpoint decides how many epochs its ranks run.
import os
import sys

import torch
import torch.distributed as dist


def init_distributed_mode(args):
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
        args.gpu = int(os.environ["LOCAL_RANK"])
    elif torch.cuda.is_available():
        args.gpu = 0
        os.environ["MASTER_ADDR"] = "127.0.0.1"
        os.environ["MASTER_PORT"] = "29500"
    else:
        sys.exit(1)
    dist.init_process_group("gloo")


def init_unless_launched(args):
    if "RANK" not in os.environ:
        os.environ["MASTER_ADDR"] = "localhost"
    dist.init_process_group("gloo")


def main(args, loader):
    init_distributed_mode(args)
    start_epoch = 0
    ckp = os.path.join(args.output_dir, "checkpoint.pth")
    if os.path.isfile(ckp):
        start_epoch = torch.load(ckp, map_location="cpu")["epoch"]
    for epoch in range(start_epoch, args.epochs):
        dist.barrier()  # want CV301 "file system"


def main_unless_launched(args):
    init_unless_launched(args)
    if os.path.isfile(args.ckpt):
        dist.barrier()  # want CV301 "file system"
