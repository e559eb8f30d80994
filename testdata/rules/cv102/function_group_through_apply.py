# Megatron's f and g as two autograd Functions: g all-reduces in forward
# on the group each apply passes (Fn.apply(x, group) fills forward's
# parameters after ctx), f in backward on the same group. The main
# thread's collective is on that group, not on the default group its
# `group=None` default names, so the backward's finding is the warning
# about one communicator shared with a blocked thread.
import torch
import torch.distributed as dist

dist.init_process_group("nccl")


class CopyToTP(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad, group=ctx.group)  # want CV102 "one communicator: the main thread waits in backward"
        return grad, None


class ReduceFromTP(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group=None):
        dist.all_reduce(x, group=group)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, None


tp = dist.new_group(list(range(dist.get_world_size())))
w = torch.randn(8, 8, device="cuda", requires_grad=True)
x = CopyToTP.apply(torch.randn(2, 8, device="cuda", requires_grad=True), tp)
ReduceFromTP.apply(x @ w, tp).sum().backward()
