# A context-parallel Function that gathers on the group its caller passes
# in forward and reduce-scatters on the same group (ctx.group) in backward
# (ringX-attention, LightSeq): the group is not known here, but forward
# communicates too, on the main thread, so this is most likely one
# communicator, and the finding is a warning with that note. A Function
# whose forward does not communicate keeps the plain finding.
import torch
import torch.distributed as dist


class GatherKV(torch.autograd.Function):
    @staticmethod
    def forward(ctx, k, group):
        ctx.group = group
        out = [torch.empty_like(k) for _ in range(dist.get_world_size(group))]
        dist.all_gather(out, k.contiguous(), group=group)
        return torch.cat(out, dim=1)

    @staticmethod
    def backward(ctx, dout):
        dk = torch.empty_like(dout.chunk(dist.get_world_size(ctx.group), dim=1)[0])
        dist.reduce_scatter(dk, list(dout.chunk(dist.get_world_size(ctx.group), dim=1)), group=ctx.group)  # want CV102 "the group is not known; the Function's forward communicates too"
        return dk, None


class ReduceGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad, group=ctx.group)  # want CV102 "all_reduce on an unknown group runs in a callback registered with Function.backward.*order them differently and hang$"
        return grad, None


def cp_gather(k, group=None):
    return GatherKV.apply(k, group)


def reduce_grad(x, group=None):
    return ReduceGrad.apply(x, group)


world_group = dist.new_group(list(range(dist.get_world_size())))
tp_group = dist.new_group([dist.get_rank()])


class TPReduce(torch.autograd.Function):
    # The main thread communicates on two groups; the hook uses one of
    # them, so it is still one communicator shared with a blocked thread.
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad, group=tp_group)  # want CV102 "a group the main thread uses too"
        return grad


def step(x):
    dist.all_reduce(x, group=world_group)
    dist.all_reduce(x, group=tp_group)
    return TPReduce.apply(x)
