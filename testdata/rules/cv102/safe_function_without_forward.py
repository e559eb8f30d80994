# An autograd Function that defines no forward (VGen's DiffScatter: two
# `symbolic`s stand where forward should be). Its apply raises
# NotImplementedError before any graph is recorded, so its backward,
# which all-gathers, never runs.
import torch
import torch.distributed as dist
from torch.autograd import Function


def _split(x):
    return x.chunk(dist.get_world_size(), dim=0)[dist.get_rank()].contiguous()


def _all_gather(x):
    out = [torch.empty_like(x) for _ in range(dist.get_world_size())]
    dist.all_gather(out, x)
    return torch.cat(out, dim=0)


class DiffScatter(Function):
    @staticmethod
    def symbolic(graph, x):
        return _split(x)

    @staticmethod
    def symbolic(ctx, x):
        return _split(x)

    @staticmethod
    def backward(ctx, grad):
        return _all_gather(grad)


diff_scatter = DiffScatter.apply


def main():
    dist.init_process_group("nccl")
    x = torch.randn(8, 4, device="cuda", requires_grad=True)
    diff_scatter(x).sum().backward()
    dist.all_reduce(x.grad)


if __name__ == "__main__":
    main()
