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


class Send(torch.autograd.Function):
    # Named only in its own log messages (QuintNet's pipeline
    # communication, which sends with batch_isend_irecv instead).
    @staticmethod
    def forward(ctx, tensor, dest_rank):
        ctx.dest_rank = dest_rank
        dist.send(tensor, dst=dest_rank)
        return tensor

    @staticmethod
    def backward(ctx, grad_output):
        grad = torch.zeros_like(grad_output)
        try:
            dist.recv(grad, src=ctx.dest_rank)
        except Exception as e:
            print(f"Send.backward: ERROR receiving grad from {ctx.dest_rank} - {e}")
            raise
        return grad, None


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
