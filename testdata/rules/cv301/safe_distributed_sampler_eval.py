# A DistributedSampler pads every rank to the same number of samples, and
# a Subset of indices every rank shares holds the same count everywhere.
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Subset
from torch.utils.data.distributed import DistributedSampler


def validate(ds, model):
    loader = DataLoader(ds, sampler=DistributedSampler(ds, shuffle=False), batch_size=128)
    for x in loader:
        t = model(x).sum()
        dist.all_reduce(t)


def validate_head(ds, model, n):
    loader = DataLoader(Subset(ds, list(range(n))), batch_size=128)
    for x in loader:
        t = model(x).sum()
        dist.all_reduce(t)
