# The same Function applied inside another Function's forward and, once,
# in a module's forward with autograd on: that apply records a graph
# node, and its backward all-to-alls on the engine's thread.
import torch
import torch.distributed as dist


class _AllToAll(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        out = torch.empty_like(x)
        dist.all_to_all_single(out, x.contiguous(), group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        out = torch.empty_like(grad)
        dist.all_to_all_single(out, grad.contiguous(), group=ctx.group)  # want CV102 "all_to_all_single"
        return out, None


class Fused(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, group):
        return _AllToAll.apply(q, group)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class Attention(torch.nn.Module):
    def forward(self, q):
        return _AllToAll.apply(q, None) + Fused.apply(q, None)


def main():
    dist.init_process_group("nccl")
    x = torch.randn(8, 4, device="cuda", requires_grad=True)
    Attention()(x).sum().backward()


if __name__ == "__main__":
    main()
