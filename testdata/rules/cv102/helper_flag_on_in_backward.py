# The same helper, with the backward asking for the all-reduce: it runs
# on the autograd engine's thread.
import torch
import torch.distributed as dist


def scale_grad(t, world, sync=False):
    out = t / world
    if sync:
        dist.all_reduce(out, group=dist.new_group([0, 1]))  # want CV102 "all_reduce on group .* runs in a callback registered with Function.backward"
    return out


class Average(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, world):
        ctx.world = world
        return x

    @staticmethod
    def backward(ctx, grad):
        return scale_grad(grad, ctx.world, sync=True), None


def average(x, world):
    return Average.apply(x, world)


def train_step(x, world):
    dist.all_reduce(x)
    return average(x, world).sum().backward()
