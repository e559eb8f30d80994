# The same Function applied through its alias: its backward runs on the
# autograd engine's thread.
import torch
import torch.distributed as dist


class GatherGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        out = [torch.empty_like(t) for _ in range(dist.get_world_size())]
        dist.all_gather(out, t)
        return torch.cat(out)

    @staticmethod
    def backward(ctx, g):
        dist.all_reduce(g)  # want CV102 "all_reduce"
        return g


gather_grad = GatherGrad.apply


def loss_of(features):
    return gather_grad(features).pow(2).sum()


def step(features):
    loss_of(features).backward()
