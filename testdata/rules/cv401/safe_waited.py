import torch.distributed as dist


def step(grad, t):
    work = dist.all_reduce(grad, async_op=True)
    req = dist.isend(t, 1)
    work.wait()
    req.wait()
