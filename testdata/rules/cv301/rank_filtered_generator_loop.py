# A loader wrapper whose __iter__ yields only the batches `idx %
# world_size == rank` picks (FuxiCTR's round-robin shard): with a batch
# count that the world size does not divide, ranks run different numbers
# of steps, and each step all-reduces.
import torch
import torch.distributed as dist


class RoundRobinShard:
    def __init__(self, loader, rank, world_size):
        self.loader, self.rank, self.world_size = loader, rank, world_size

    def __iter__(self):
        for idx, batch in enumerate(self.loader):
            if idx % self.world_size == self.rank:
                yield batch


def train(model, batches):
    shard = RoundRobinShard(batches, dist.get_rank(), dist.get_world_size())
    for x in shard:
        model(x).sum().backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)  # want CV301 "once per element of `shard`"
    for x in RoundRobinShard(batches, dist.get_rank(), dist.get_world_size()):
        dist.all_reduce(x)  # want CV301 "once per element of `RoundRobinShard"


def evaluate(model, batches):
    # The rank's share fills the list, so whether it ends empty is the
    # rank's own answer: a rank without a batch skips the gather.
    preds = []
    for x in RoundRobinShard(batches, dist.get_rank(), dist.get_world_size()):
        preds.append(model(x))
    if len(preds) > 0:
        out = [None] * dist.get_world_size()
        dist.all_gather_object(out, preds)  # want CV301 "len\(preds\) > 0"
