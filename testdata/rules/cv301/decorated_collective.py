# A rank-0-only call of a decorated function that communicates, directly or
# through a helper: the wrapper's summary keeps the function the call names.
import functools

import torch.distributed as dist


def no_grad(func):
    @functools.wraps(func)
    def decorate_context(*args, **kwargs):
        return func(*args, **kwargs)

    return decorate_context


@no_grad
def sync(t):
    dist.all_reduce(t)


@no_grad
def scale(t):
    return t * 2


def helper(t):
    sync(t)


def step(t):
    rank = dist.get_rank()
    if rank == 0:
        sync(t)  # want CV301 "all_reduce"


def step2(t):
    rank = dist.get_rank()
    if rank == 0:
        helper(t)  # want CV301 "all_reduce"
