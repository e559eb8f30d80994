# The same resume with the position agreed first (rank 0's, broadcast),
# and a sampler that keeps the position for its own bookkeeping only:
# its __iter__ runs over the whole sampler whatever it was given.
import os

import torch
import torch.distributed as dist
from torch.utils.data.sampler import BatchSampler, SequentialSampler


class CheckPointer:
    def __init__(self, save_dir):
        self.save_dir = save_dir

    def load(self):
        if not os.path.exists(os.path.join(self.save_dir, "last_checkpoint.txt")):
            return {}
        return torch.load(os.path.join(self.save_dir, "model.pth"), map_location="cpu")


class LoggedBatchSampler(BatchSampler):
    def __init__(self, batch_sampler, start_iter=0):
        self.batch_sampler = batch_sampler
        self.resumed_at = start_iter

    def __iter__(self):
        for batch in self.batch_sampler:
            yield batch


def train_agreed(model):
    extra = CheckPointer("out").load()
    start = [extra.get("iteration", 0)]
    dist.broadcast_object_list(start, src=0)
    for iteration in range(start[0], 1000):
        dist.barrier()


def train_logged(model):
    extra = CheckPointer("out").load()
    start_iter = extra.get("iteration", 0)
    sampler = LoggedBatchSampler(BatchSampler(SequentialSampler(range(64)), 8, False), start_iter)
    for batch in sampler:
        dist.barrier()
