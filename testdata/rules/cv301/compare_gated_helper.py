# The same helpers called from a rank-0 branch with a literal the
# comparison accepts, or with a variable, communicate on rank 0 only.
from contextlib import contextmanager

import torch.distributed as dist


@contextmanager
def torch_distributed_zero_first(local_rank: int):
    if local_rank not in [-1, 0]:
        dist.barrier(device_ids=[local_rank])
    yield
    if local_rank == 0:
        dist.barrier(device_ids=[0])


def create_dataloader(path, rank=-1):
    with torch_distributed_zero_first(rank):
        dataset = list(range(10))
    return dataset


def get_loaders(args):
    val_loader = None
    if args.rank in [-1, 0]:
        val_loader = create_dataloader("val", rank=0)  # want CV301 "barrier"
    if args.rank in [-1, 0]:
        val_loader = create_dataloader("val", rank=args.local_rank)  # want CV301 "barrier"
    return val_loader


def sync_if_distributed(t, world_size):
    if world_size > 1:
        dist.all_reduce(t)
    return t


def sync_unless_single(t, world_size):
    if world_size == 1:
        return t
    dist.all_reduce(t)
    return t


def log_on_rank0(t, n):
    if dist.get_rank() == 0:
        sync_if_distributed(t, 2)  # want CV301 "all_reduce"
    if dist.get_rank() == 0:
        sync_unless_single(t, world_size=n)  # want CV301 "all_reduce"
