# Tensor-parallel primitives (nanotron's shape): Function.apply runs the
# class's forward on the caller's thread. Called from another Function's
# backward, that forward's all_reduce runs on the autograd engine's
# thread; called from the training step, on the main thread (silent).
import torch
import torch.distributed as dist


class AllReduceSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        dist.all_reduce(x, group=group)  # want CV102 "all_reduce .*Function.backward"
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x

    @staticmethod
    def backward(ctx, grad):
        return AllReduceSum.apply(grad, ctx.group), None


def row_parallel(x, group):
    return AllReduceSum.apply(x, group)


def column_parallel(x, group):
    return Identity.apply(x, group)
