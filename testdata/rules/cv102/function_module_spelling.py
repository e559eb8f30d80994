# The autograd Function base spelled through its home module: backward
# still runs on the autograd engine's thread.
import torch
import torch.distributed as dist
from torch.autograd.function import Function


class Broadcast(torch.autograd.function.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        dist.broadcast(grad, src=0)  # want CV102 "Function.backward"
        return grad


class Gather(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad)  # want CV102 "Function.backward"
        return grad


def replicate(x):
    return Gather.apply(Broadcast.apply(x))
