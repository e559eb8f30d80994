# An autograd Function whose backward all-reduces, which no code of the
# program applies (msn's utilities): its backward never runs.
import torch
import torch.distributed as dist


class AllGather(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = [torch.zeros_like(x) for _ in range(dist.get_world_size())]
        dist.all_gather(out, x)
        return torch.cat(out, 0)

    @staticmethod
    def backward(ctx, grads):
        dist.all_reduce(grads)  # never reached: nothing applies the class
        return grads


class AllReduceSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        dist.all_reduce(x)
        return x

    @staticmethod
    def backward(ctx, grads):
        return grads


def main():
    dist.init_process_group("nccl")
    model = torch.nn.Linear(4, 4).cuda()
    x = torch.randn(8, 4, device="cuda")
    loss = model(x).sum()
    loss.backward()
    with torch.no_grad():
        model.weight.grad.data = AllReduceSum.apply(model.weight.grad.data)


if __name__ == "__main__":
    main()
