# A DistributedSampler hands every rank as many indices (it pads or drops
# to an even share): a loader over it has one length on every rank, so
# the last-step test agrees.
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler


def train(ds, accum):
    sampler = DistributedSampler(ds, num_replicas=dist.get_world_size(), rank=dist.get_rank())
    loader = DataLoader(ds, batch_size=4, sampler=sampler, drop_last=True)
    for i, batch in enumerate(loader):
        is_update_step = (i + 1) % accum == 0 or i + 1 == len(loader)
        loss = torch.tensor(float(len(batch)), device="cuda")
        if is_update_step:
            dist.all_reduce(loss)
