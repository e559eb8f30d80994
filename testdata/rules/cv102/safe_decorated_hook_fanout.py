# Seen on PyTorch's FSDP: the post-backward hook is decorated with
# torch.no_grad() and registered through functools.partial. The hook's entry
# is the decorator's wrapper, which calls every function that decorator
# wraps; the context runs only the registered one, so clip_grad_norm_'s
# all_reduce (main thread only) is not reported.
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
    handle.grad = grad


@no_grad
def clip_grad_norm_(t):
    dist.all_reduce(t)


def train(handle, t):
    p = torch.ones(2, requires_grad=True)
    p.register_hook(functools.partial(post_backward_hook, handle))
    clip_grad_norm_(t)
