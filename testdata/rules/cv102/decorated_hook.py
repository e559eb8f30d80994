# A decorated hook that communicates: the wrapper's entry still runs the
# registered function.
import functools

import torch
import torch.distributed as dist


def no_grad(func):
    @functools.wraps(func)
    def decorate_context(*args, **kwargs):
        return func(*args, **kwargs)

    return decorate_context


@no_grad
def post_backward_hook(handle, grad):
    dist.all_reduce(grad)  # want CV102 "all_reduce on the default group"


@no_grad
def clip_grad_norm_(t):
    return t


def train(handle, t):
    p = torch.ones(2, requires_grad=True)
    p.register_hook(functools.partial(post_backward_hook, handle))
    clip_grad_norm_(t)
