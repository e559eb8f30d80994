# The loader comes from a helper that builds it over a
# DistributedSampler and returns it with the sampler: every rank holds
# as many batches, and they run out on the same pass.
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def loaders(rank, world):
    ds = TensorDataset(torch.randn(6400, 4))
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank)
    return DataLoader(ds, batch_size=32, sampler=sampler), sampler


def diagnose(rank, world, steps=20):
    tr, _ = loaders(rank, world)
    it = iter(tr)
    for s in range(steps):
        try:
            (x,) = next(it)
        except StopIteration:
            break
        dist.all_reduce(x)
