# The evaluation loader samples the rank's stride of the data set
# (np.arange(rank, n, world), through a sampler or a Subset) without
# padding: ranks hold ceil or floor of n / world samples and may get
# different batch counts, and each batch all-reduces (UniCL's validate).
import numpy as np
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Subset, SubsetRandomSampler


def validate_sampler(ds, model):
    indices = np.arange(dist.get_rank(), len(ds), dist.get_world_size())
    loader = DataLoader(ds, sampler=SubsetRandomSampler(indices), batch_size=128)
    for x in loader:
        t = model(x).sum()
        dist.all_reduce(t)  # want CV301 "all_reduce"


def validate_subset(ds, model):
    loader = DataLoader(Subset(ds, list(range(dist.get_rank(), len(ds), dist.get_world_size()))), batch_size=128)
    for x in loader:
        t = model(x).sum()
        dist.all_reduce(t)  # want CV301 "all_reduce"
