# A group every rank holds one of (a partition of the ranks), used under
# a test only some of its members pass: still a one-sided collective.
import torch.distributed as dist

import mpu


class Worker:
    def __init__(self):
        self.rank = dist.get_rank()
        self.mp_group = mpu.get_mp_group()

    def step(self, x):
        if self.rank == 0:
            dist.all_reduce(x, group=self.mp_group)  # want CV301 "runs only when `self.rank == 0` holds"
