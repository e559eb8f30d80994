# An autograd Function whose backward communicates, applied only inside
# another Function's forward (context_parallel's _AllToAll in its Ulysses
# attention), directly and through a helper: torch runs that forward with
# autograd off, so no graph node is recorded for it and its backward
# never runs.
import torch
import torch.distributed as dist


def _a2a(x, group):
    out = torch.empty_like(x)
    dist.all_to_all_single(out, x.contiguous(), group=group)
    return out


class _AllToAll(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return _a2a(x, group)

    @staticmethod
    def backward(ctx, grad):
        return _a2a(grad, ctx.group), None


def seq_to_heads(x, group):
    return _AllToAll.apply(x, group)


class UlyssesAttn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, group):
        ctx.group = group
        q = seq_to_heads(q, group)
        return _AllToAll.apply(q * 2, group)

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, None


def main():
    dist.init_process_group("nccl")
    x = torch.randn(8, 4, device="cuda", requires_grad=True)
    UlyssesAttn.apply(x, None).sum().backward()


if __name__ == "__main__":
    main()
