# The main-process-first idiom as a class: the other ranks wait in
# __enter__ until rank 0, done with the block, reaches the barrier in
# __exit__. Every rank issues one barrier.
import os

import torch.distributed as dist


class run_zero_first:
    def __init__(self):
        self.local_rank = int(os.environ.get("LOCAL_RANK", -1))

    def __enter__(self):
        if self.local_rank > 0:
            dist.barrier(device_ids=[self.local_rank])

    def __exit__(self, exc_type, value, traceback):
        if exc_type is not None and self.local_rank >= 0:
            dist.destroy_process_group()
        if self.local_rank == 0:
            dist.barrier(device_ids=[self.local_rank])
        return False


def prepare(download):
    with run_zero_first():
        download()


class agreed_then_zero_first:
    # A collective before the waiting barrier runs on every rank.
    def __init__(self):
        self.rank = int(os.environ["RANK"])

    def __enter__(self):
        dist.barrier()
        if self.rank != 0:
            dist.barrier()

    def __exit__(self, *exc):
        if self.rank == 0:
            dist.barrier()
        return False
