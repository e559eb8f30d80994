# "Main process first": the other ranks wait at a barrier before the work,
# rank 0 after it. Every rank issues one barrier, so they pair up
# (YOLOv5's torch_distributed_zero_first, transformers'
# main_process_first).
from contextlib import contextmanager

import torch.distributed as dist


def download():
    return "data"


def main_first():
    rank = dist.get_rank()
    if rank != 0:
        dist.barrier()
    data = download()
    if rank == 0:
        dist.barrier()
    return data


@contextmanager
def torch_distributed_zero_first():
    local_rank = dist.get_rank()
    if local_rank not in [-1, 0]:
        dist.barrier()
    yield
    if local_rank == 0:
        dist.barrier()


def main_first_flag(group):
    is_main = dist.get_rank() == 0
    if not is_main:
        dist.barrier(group=group)
    data = download()
    if is_main:
        dist.barrier(group=group)
    return data


def greater(x):
    if dist.get_rank() > 0:
        dist.broadcast(x, src=0)
    x = x * 2
    if dist.get_rank() == 0:
        dist.broadcast(x, src=0)
    return x


def guarded(distributed):
    # The same guard around both tests (SuperWater's loader build).
    is_main = dist.get_rank() == 0
    if distributed and not is_main:
        dist.barrier()
    data = download()
    if distributed and is_main:
        dist.barrier()
    return data
