# Lists of handles built by a comprehension and waited element by
# element, handed to a waiting call, returned, or waited by the helper
# that builds them when the caller asks for blocking.
import torch
import torch.distributed as dist


def loop_waited(params, group):
    reqs = [dist.broadcast(p, 0, group=group, async_op=True) for p in params]
    for r in reqs:
        r.wait()


def comprehension_waited(params, group):
    reqs = [dist.all_reduce(p, group=group, async_op=True) for p in params]
    [r.wait() for r in reqs]


def handed_on(params, group):
    futs = [dist.all_reduce(p, group=group, async_op=True).get_future() for p in params]
    torch.futures.wait_all(futs)


def returned(params, group):
    reqs = [dist.broadcast(p, 0, group=group, async_op=True) for p in params]
    return reqs


class Shard:
    def __init__(self, module, owner, group):
        self.module, self.owner, self.group = module, owner, group

    def load(self, non_blocking=True):
        reqs = [dist.broadcast(p, self.owner, group=self.group, async_op=True) for p in self.module.parameters()]
        return reqs if non_blocking else [r.wait() for r in reqs]


def forward(shards, x):
    for s in shards:
        for r in s.load(non_blocking=True):
            r.wait()
        s.load(non_blocking=False)
        x = s.module(x)
    return x


def main(module, x, group):
    return forward([Shard(module, 0, group)], x)
