# A list comprehension of async collectives holds one handle per element:
# dropping the list, or never waiting its elements, leaves them unwaited.
import torch.distributed as dist


def never_waited(params, group):
    reqs = [dist.broadcast(p, 0, group=group, async_op=True) for p in params]  # want CV401 "\"reqs\", the work handle of this broadcast, is never waited"
    return params[0] * 2


def dropped(params, group):
    [dist.all_reduce(p, group=group, async_op=True) for p in params]  # want CV401 "the work handle all_reduce returns is discarded"


class Shard:
    def __init__(self, module, owner, group):
        self.module, self.owner, self.group = module, owner, group

    def load(self, non_blocking=True):
        reqs = [dist.broadcast(p, self.owner, group=self.group, async_op=True) for p in self.module.parameters()]
        return reqs if non_blocking else [r.wait() for r in reqs]


def forward(shards, x):
    for s in shards:
        s.load(non_blocking=True)  # want CV401 "the work handle of the broadcast that load returns is discarded"
        x = s.module(x)
    return x


def main(module, x, group):
    return forward([Shard(module, 0, group)], x)
