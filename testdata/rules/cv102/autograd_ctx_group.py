# The torch.distributed.nn shape: forward keeps the tensor-parallel group on
# ctx and backward all-reduces on it from the autograd engine's thread while
# the main thread uses WORLD; both are NCCL communicators
# (testdata/witness/autograd_function.py). CV102 reports it, with the
# note that names the second communicator (CV103 leaves user hooks to CV102).
import torch
import torch.distributed as dist


class CopyToParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad, group=ctx.group)  # want CV102 "all_reduce on group new_group@.*two communicators are driven from two threads"
        return grad, None


def main(w, t):
    dist.init_process_group("nccl")
    tp = dist.new_group([0, 1])
    y = CopyToParallel.apply(w, tp)
    y.sum().backward()
    dist.all_reduce(t)
