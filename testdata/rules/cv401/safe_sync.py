import torch.distributed as dist


def step(x):
    dist.all_reduce(x)
    dist.barrier()
