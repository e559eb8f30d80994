# Every rank gets as many samples from its DistributedSampler, but cut
# into batches of its own size: the loaders' lengths differ, and so does
# the number of barriers (FlashFlex's per-pipeline batch sizes). One
# batch size for every rank gives one length.
import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler


def train(dataset, bsz, step):
    sampler = DistributedSampler(dataset)
    loader = DataLoader(dataset, batch_size=bsz[dist.get_rank()], sampler=sampler)
    for batch in loader:
        step(batch)
        dist.barrier()  # want CV301 "once per element of `loader`, whose length depends on the rank"
    fixed = DataLoader(dataset, batch_size=bsz[0], sampler=sampler)
    for batch in fixed:
        step(batch)
        dist.all_reduce(batch)
