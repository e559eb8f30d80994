# OCP's BalancedBatchSampler: the constructor turns balancing off where it
# does not see the metadata file, and iteration all-gathers only where
# balancing is on. What one host saw decides for that rank alone.
import os

import torch
import torch.distributed as dist
from torch.utils.data import Sampler


class BalancedBatchSampler(Sampler):
    def __init__(self, dataset, batch_sampler, world_size):
        self.batch_sampler = batch_sampler
        self.world_size = world_size
        self.balance_batches = world_size > 1
        if not os.path.isfile(dataset.metadata_path):
            self.balance_batches = False

    def __iter__(self):
        for batch_idx in self.batch_sampler:
            if self.balance_batches:
                t = torch.tensor(batch_idx)
                out = [torch.zeros_like(t) for _ in range(self.world_size)]
                dist.all_gather(out, t)  # want CV301 "`self.balance_batches` holds, which depends on a file system check"
                yield torch.cat(out)
            else:
                yield batch_idx


class Cache:
    def __init__(self, path):
        self.ok = os.path.isfile(path)

    def sync(self, t, ws):
        if self.ok:
            out = [torch.zeros_like(t) for _ in range(ws)]
            dist.all_gather(out, t)  # want CV301 "which depends on a file system check"
