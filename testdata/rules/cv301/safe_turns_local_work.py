# Blocks run in turns that do not communicate (a download, a cache
# build), collectives after the block, and a context manager every rank
# passes the same way.
from contextlib import contextmanager

import torch.distributed as dist
from accelerate import Accelerator


@contextmanager
def rank0_first():
    rank = dist.get_rank()
    if rank == 0:
        yield
    dist.barrier()
    if rank > 0:
        yield
    dist.barrier()


@contextmanager
def fenced():
    dist.barrier()
    yield
    dist.barrier()


def download(path):
    return open(path).read()


def prepare(t, path):
    with rank0_first():
        data = download(path)
    dist.all_reduce(t)
    accelerator = Accelerator()
    with accelerator.main_process_first():
        data = download(path)
    with fenced():
        dist.all_reduce(t)
    return data
