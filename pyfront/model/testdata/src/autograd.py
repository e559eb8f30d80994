import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def grad_hook(grad):
    dist.all_reduce(grad)  # context: autograd@H
    return grad


class AllReduceGrad(torch.autograd.Function):  # spawn: F
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        dist.all_reduce(g)  # context: autograd@F
        return g


class CopyToParallel(torch.autograd.Function):  # spawn: P
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        ctx.scale, ctx.other = 2.0, dist.group.WORLD
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad, group=ctx.group)  # context: autograd@P  # group: new_group@TP
        dist.all_reduce(grad, group=ctx.other)  # context: autograd@P  # group: WORLD
        return grad, None


class ParamGroup:
    def pre_forward(self, x):
        return PostBackward.apply(self, x)

    def post_backward(self, grad):
        dist.all_reduce(grad)  # context: autograd@B


class PostBackward(torch.autograd.Function):  # spawn: B
    # ctx is one object from forward to backward: what forward stores on
    # it, backward calls through it (FSDP2's RegisterPostBackwardFunction).
    @staticmethod
    def forward(ctx, param_group, x):
        ctx.param_group = param_group
        ctx.save_for_backward(x)  # calls: torch.autograd.function.FunctionCtx.save_for_backward
        return x

    @staticmethod
    def backward(ctx, grad):
        ctx.param_group.post_backward(grad)  # calls: autograd.ParamGroup.post_backward
        return None, grad


def comm_hook(state, bucket):
    return dist.all_reduce(bucket.buffer(), async_op=True)  # context: autograd@C  # async


def module_hook(module, gin, gout):
    dist.barrier()  # context: autograd@M


def train(model, x):
    p = torch.ones(2, requires_grad=True)
    p.register_hook(grad_hook)  # spawn: H
    model.register_full_backward_hook(module_hook)  # spawn: M
    ddp = DDP(model)
    ddp.register_comm_hook(None, comm_hook)  # spawn: C
    y = AllReduceGrad.apply(x)
    tp = dist.new_group([0, 1])  # alloc: TP
    y = CopyToParallel.apply(y, tp)
    y.sum().backward()


train(torch.nn.Linear(2, 2), torch.ones(2))
