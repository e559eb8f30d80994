import torch.distributed as dist


def step(grad):
    dist.all_reduce(grad, async_op=True)  # want CV401 "discarded"
    return grad
