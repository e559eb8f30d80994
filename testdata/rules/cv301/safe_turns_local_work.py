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


def build_loader(accelerator, path):
    data = download(path)
    accelerator.wait_for_everyone()
    return data


def barriers_in_turns(path):
    # A barrier inside the block meets a barrier: rank 0 passes the
    # block's and then the exit's, the others the entry's and then the
    # block's (Amphion's loaders).
    accelerator = Accelerator()
    with accelerator.main_process_first():
        data = build_loader(accelerator, path)
    with accelerator.main_process_first():
        accelerator.wait_for_everyone()
        dist.barrier()
    return data
