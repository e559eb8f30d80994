# A helper whose collectives run only where a parameter compares so with
# integer literals, called from a rank-0 branch with a literal the
# comparison rejects, issues nothing there: YOLOv5's and YOLOv6's
# validation loader is built on rank 0 only with rank=-1, and
# torch_distributed_zero_first(-1) takes neither barrier.
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
    train_loader = create_dataloader("train", rank=args.local_rank)
    val_loader = None
    if args.rank in [-1, 0]:
        val_loader = create_dataloader("val", rank=-1)
    if args.rank in {-1, 0}:
        val_loader = create_dataloader("val")  # the default, -1
    return train_loader, val_loader


def sync_if_distributed(t, world_size):
    if world_size > 1:
        dist.all_reduce(t)
    return t


def sync_unless_single(t, world_size):
    if world_size == 1:
        return t
    dist.all_reduce(t)
    return t


def log_on_rank0(t):
    if dist.get_rank() == 0:
        sync_if_distributed(t, 1)
        sync_unless_single(t, world_size=1)
