# An inference program turns autograd off for the whole process at import
# and never back on, and runs no backward pass: the autograd Function's
# backward, with its all-reduce, never runs (DeepFold's predict with its
# model-parallel regions).
import torch
import torch.distributed as dist

torch.set_grad_enabled(False)


class CopyToModelParallelRegion(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad)
        return grad


def predict(x):
    y = CopyToModelParallelRegion.apply(x)
    dist.all_reduce(y)
    return y
