import torch

import comm


class AllToAll(torch.autograd.Function):
    @staticmethod
    def forward(ctx, group, x):
        ctx.group = group
        out = torch.empty_like(x)
        comm.all_to_all_single(out, x, group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        return None, AllToAll.apply(ctx.group, grad)


def step(model, batch, group):
    loss = model(AllToAll.apply(group, batch)).sum()
    loss.backward()
    comm.all_reduce(loss)
    comm.barrier()
