# forward keeps the group on ctx; apply passes None, so backward all-reduces
# on WORLD, the main thread's communicator: CV102 names WORLD (before the
# group flowed through ctx it said "an unknown group").
import torch
import torch.distributed as dist


class ReduceGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad, group=ctx.group)  # want CV102 "all_reduce on the default group \(WORLD\) runs in a callback"
        return grad, None


def main(w, t):
    y = ReduceGrad.apply(w, None)
    y.sum().backward()
    dist.all_reduce(t)
