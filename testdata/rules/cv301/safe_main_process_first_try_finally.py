# Main process first, written with try/finally around the yield: the
# other ranks wait in the first barrier, rank 0 releases them in the
# finally clause however the body ends; each rank issues one barrier
# (tight-budget-llm-adaptation's main_process_first).
import contextlib
import os

import torch.distributed as dist


@contextlib.contextmanager
def main_process_first(local_rank: int):
    try:
        if local_rank > 0:
            dist.barrier()
        yield
    finally:
        if local_rank == 0:
            dist.barrier()


@contextlib.contextmanager
def main_process_first_synced(local_rank: int, sync_at_end: bool):
    # The release first, then a barrier every rank issues.
    try:
        if local_rank > 0:
            dist.barrier()
        yield
    finally:
        if local_rank == 0:
            dist.barrier()
        if sync_at_end:
            dist.barrier()


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    with main_process_first(local_rank):
        data = [1, 2, 3]
    with main_process_first_synced(local_rank, True):
        data = [4, 5, 6]
    dist.barrier()
    print(data)
