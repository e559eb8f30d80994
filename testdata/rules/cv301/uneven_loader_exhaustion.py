# Shards this rank chose itself, or a distributed sampler on another
# loader than the one iterated: the ranks can hold different numbers of
# batches.
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler


def evaluate(model, shard, eval_set, world):
    loader = DataLoader(shard, batch_size=8)
    eval_loader = DataLoader(eval_set, sampler=DistributedSampler(eval_set))
    it = iter(loader)
    total = torch.zeros(1)
    while True:
        try:
            batch = next(it)
        except StopIteration:
            break
        loss = model(batch).sum().detach()
        dist.all_reduce(loss)  # want CV301 "runs only on the ranks whose data has not run out"
        total += loss
    return total


def eval_passed(model, loader, n=50):
    # One caller hands a loader over a DistributedSampler, the other one
    # over the rank's own shard: the ranks may run out apart.
    it = iter(loader)
    total = torch.zeros(1)
    for _ in range(n):
        try:
            batch = next(it)
        except StopIteration:
            break
        total += model(batch).sum().detach()
        dist.all_reduce(total)  # want CV301 "runs only on the ranks whose data has not run out"
    return total


def run(model, ds, shard):
    eval_passed(model, DataLoader(ds, sampler=DistributedSampler(ds)))
    eval_passed(model, DataLoader(shard, batch_size=8))
