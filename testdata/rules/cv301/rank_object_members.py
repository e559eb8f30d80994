# An iterator built with the rank: what its members compute from the
# rank's own shard differs between ranks (its shard's length, how far it
# has read), but a length computed from the whole dataset and the number
# of shards, or a counter it starts at zero, does not (NMTGMinor's
# DataIterator: ceil(n / shards) * shards).
import math

import torch.distributed as dist


class DataIterator:
    def __init__(self, batches, num_shards, shard_id):
        self.batches = tuple(batches)
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.items = list(batches)[shard_id::num_shards]
        self.n = 0

    def __len__(self):
        return math.ceil(len(self.batches) / self.num_shards) * self.num_shards

    def shard_size(self):
        return len(self.items)

    @property
    def iterations_in_epoch(self):
        return self.n

    @property
    def remaining(self):
        return len(self.items) - self.n


def train_step(batches, t, i, counter, update_frequency):
    it = DataIterator(batches, dist.get_world_size(), dist.get_rank())
    n_samples = len(it)
    if counter >= update_frequency or i == n_samples - 1:
        dist.all_reduce(t)
    start = it.iterations_in_epoch * dist.get_world_size()
    if start % 100 == 0:
        dist.all_reduce(t)
    if it.shard_size() > 10:
        dist.all_reduce(t)  # want CV301 "it.shard_size\(\) > 10"
    if it.remaining > 0:
        dist.all_reduce(t)  # want CV301 "it.remaining > 0"
