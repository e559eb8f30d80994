# The helper communicates only when its caller asks (`sync=True`); the
# Function's backward calls it without the flag, so nothing communicates
# on the autograd thread (the forward's call asks, on the main thread).
import torch
import torch.distributed as dist


def scale_grad(t, world, sync=False):
    out = t / world
    if sync:
        dist.all_reduce(out)
    return out


class Average(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, world):
        ctx.world = world
        return scale_grad(x, world, sync=True)

    @staticmethod
    def backward(ctx, grad):
        return scale_grad(grad, ctx.world), None


def average(x, world):
    return Average.apply(x, world)
