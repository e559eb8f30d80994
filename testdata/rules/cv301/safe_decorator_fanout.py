# Seen on PyTorch (FSDP's summon_full_params, the RPC examples): a call of a
# function decorated with a wrapping decorator (torch.no_grad()) resolves to
# the decorator's wrapper, which calls every function that decorator wraps
# anywhere in the program, one of which communicates. Only the function the
# call names is followed, directly or through a helper.
import functools

import torch.distributed as dist


def no_grad(func):
    @functools.wraps(func)
    def decorate_context(*args, **kwargs):
        return func(*args, **kwargs)

    return decorate_context


@no_grad
def clip_grad_norm_(t):
    dist.all_reduce(t)


@no_grad
def free_storage(t):
    return t.zero_()


def reshard(t):
    free_storage(t)


def summon(t):
    rank = dist.get_rank()
    if rank != 0:
        free_storage(t)
    if rank == 0:
        reshard(t)
