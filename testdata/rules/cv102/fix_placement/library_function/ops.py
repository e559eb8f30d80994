# A library's autograd Function that no script of these paths runs: the
# script that does run it lies outside them, so there is no init statement
# to put the fix after.
import torch
import torch.distributed as dist


class ScaledAllReduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad)  # want CV102 "Function.backward"
        return grad


def scaled(x):
    return ScaledAllReduce.apply(x)
