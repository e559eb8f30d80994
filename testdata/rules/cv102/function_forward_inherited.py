# The Function's forward comes from a base class of the program: apply
# runs it, and the engine calls the subclass's backward on its own thread.
import torch
import torch.distributed as dist


class _Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)


class ReduceGrad(_Identity):
    @staticmethod
    def backward(ctx, grad):
        dist.all_reduce(grad)  # want CV102 "all_reduce on the default group"
        return grad


def main():
    dist.init_process_group("nccl")
    x = torch.randn(8, 4, device="cuda", requires_grad=True)
    ReduceGrad.apply(x).sum().backward()


if __name__ == "__main__":
    main()
