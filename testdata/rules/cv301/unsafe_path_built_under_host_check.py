# A path built from the directory a host's check found (an f-string, a
# join) is set only on the hosts that see it; elsewhere the name keeps
# None, so a test of it after the check is this host's answer, as it is
# for the checked path itself.
import os

import torch.distributed as dist


def load_ema(path):
    dist.barrier()


def formatted(ckpt_dir):
    dist.init_process_group("nccl")
    load_from = None
    if os.path.isdir(ckpt_dir):
        load_from = f"{ckpt_dir}/ema.pth"
    if load_from is not None:
        load_ema(load_from)  # want CV301 "file system check"


def joined(ckpt_dir):
    dist.init_process_group("nccl")
    load_from = None
    if os.path.exists(ckpt_dir):
        load_from = os.path.join(ckpt_dir, "x.pt")
    if load_from:
        load_ema(load_from)  # want CV301 "file system check"


def defaulted(ckpt_dir):
    # Both paths leave a path: whether it is None is the same everywhere.
    dist.init_process_group("nccl")
    load_from = f"{ckpt_dir}/default.pt"
    if os.path.exists(ckpt_dir):
        load_from = os.path.join(ckpt_dir, "x.pt")
    if load_from is not None:
        load_ema(load_from)
