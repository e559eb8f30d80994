# The helpers bind the device before any collective: in the order they
# are called, or inside the helper that makes the group.
import os

import torch
import torch.distributed as dist


def init_distributed():
    dist.init_process_group("nccl")


def bind():
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))


def init_and_bind():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))


def main():
    init_distributed()
    bind()
    dist.barrier()


def main_bound_inside():
    init_and_bind()
    dist.barrier()
    bind()
