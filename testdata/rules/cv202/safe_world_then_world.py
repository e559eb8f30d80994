import torch.distributed as dist


def step(x):
    w = dist.all_reduce(x, async_op=True)
    dist.broadcast(x, 0)
    w.wait()
