# Class-based context managers whose halves do not pair: the same test in
# both methods (rank 0 issues two barriers, the others none), and a
# collective in __enter__ after the waiting barrier (rank 0 reaches the
# all-reduce while the others still wait in the barrier).
import os

import torch
import torch.distributed as dist


class both_on_zero:
    def __init__(self):
        self.rank = int(os.environ["RANK"])

    def __enter__(self):
        if self.rank == 0:
            dist.barrier()  # want CV301 "self.rank == 0"

    def __exit__(self, *exc):
        if self.rank == 0:
            dist.barrier()  # want CV301 "self.rank == 0"
        return False


class extra_collective:
    def __init__(self):
        self.rank = int(os.environ["RANK"])
        self.flag = torch.zeros(1)

    def __enter__(self):
        if self.rank != 0:
            dist.barrier()  # want CV301 "self.rank != 0"
        dist.all_reduce(self.flag)

    def __exit__(self, *exc):
        if self.rank == 0:
            dist.barrier()  # want CV301 "self.rank == 0"
        return False
