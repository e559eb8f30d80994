# The group is made by a setup helper whose backend parameter is "gloo" on
# every call: destroying it in finally is a local teardown (a CPU
# expert-parallel tutorial run under mp.spawn).
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def setup(rank, world_size, backend="gloo"):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29500"
    dist.init_process_group(backend, rank=rank, world_size=world_size)


def worker(rank, world_size):
    setup(rank, world_size)
    try:
        t = torch.ones(4)
        for _ in range(3):
            dist.all_reduce(t)
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(worker, args=(4,), nprocs=4, join=True)
