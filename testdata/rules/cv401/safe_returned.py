import torch.distributed as dist


def start_reduce(t):
    return dist.all_reduce(t, async_op=True)


def start_send(t):
    req = dist.isend(t, 1)
    return req
