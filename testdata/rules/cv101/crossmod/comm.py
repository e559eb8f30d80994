import torch.distributed as dist


def sync(x):
    dist.all_reduce(x)  # want CV101 "thread started at"
