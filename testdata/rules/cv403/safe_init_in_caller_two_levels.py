# The device is picked two calls below the group's creation, before any
# collective: every rank's all-reduce runs on its own device.
import os

import torch
import torch.distributed as dist


def assign_gpu(rank):
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    t = torch.ones(1).cuda()
    dist.all_reduce(t)


def config(rank):
    assign_gpu(rank)


def setup(rank):
    dist.init_process_group("nccl")
    config(rank)
