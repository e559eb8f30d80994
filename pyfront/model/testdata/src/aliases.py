import torch.distributed as dist
from torch import distributed as D
import torch.distributed.distributed_c10d as c10d


def f(t):
    dist.all_reduce(t)  # api: torch.distributed.all_reduce
    D.all_reduce(t)  # api: torch.distributed.all_reduce
    c10d.all_reduce(t)  # api: torch.distributed.all_reduce
    ar = dist.all_reduce
    ar(t)  # api: torch.distributed.all_reduce
    w = dist.all_reduce(t, async_op=True)  # async
    w.wait()
    dist.get_rank()  # api: -


def helper():
    pass


def not_called():
    helper()  # calls: aliases.helper  # context: -


f(None)  # calls: aliases.f
