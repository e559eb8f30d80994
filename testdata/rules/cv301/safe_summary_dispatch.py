# Seen on PyTorch's RPC tests: rank 0 calls torch.jit.script, whose body
# calls Module.__call__; that call's summary fans out over every forward in
# the program, one of which communicates. Summaries do not follow
# Module.__call__ at any depth, as branches do not follow it directly.
import torch.distributed as dist


class Module:
    def __call__(self, *args):
        return self.forward(*args)


class Synced(Module):
    def forward(self, x):
        dist.all_reduce(x)
        return x


class Plain(Module):
    def forward(self, x):
        return x * 2


def script(obj, x):
    return obj(x)


def test(x):
    rank = dist.get_rank()
    Synced()(x)
    if rank == 0:
        script(Plain(), x)
