import torch
import torch.distributed as dist


class CopyToParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad)  # want CV102 "all_reduce on the default group"
        return grad


def copy_to_parallel(x):
    return CopyToParallel.apply(x)
