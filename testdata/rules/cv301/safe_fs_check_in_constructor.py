# The constructor's flags come from the configuration and the world size,
# the same on every rank; a file it reads is data, not a decision.
import os

import torch
import torch.distributed as dist
from torch.utils.data import Sampler


class BalancedBatchSampler(Sampler):
    def __init__(self, dataset, batch_sampler, world_size, force_balancing):
        self.batch_sampler = batch_sampler
        self.world_size = world_size
        self.balance_batches = world_size > 1 and force_balancing
        self.sizes = None
        if os.path.isfile(dataset.metadata_path):
            self.sizes = dataset.load_metadata()

    def __iter__(self):
        for batch_idx in self.batch_sampler:
            if self.balance_batches:
                t = torch.tensor(batch_idx)
                out = [torch.zeros_like(t) for _ in range(self.world_size)]
                dist.all_gather(out, t)
                yield torch.cat(out)
            else:
                yield batch_idx
