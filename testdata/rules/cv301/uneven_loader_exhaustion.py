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
