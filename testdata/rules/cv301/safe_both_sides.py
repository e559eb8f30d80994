import torch.distributed as dist


def share(x):
    if dist.get_rank() == 0:
        x.fill_(1)
        dist.broadcast(x, 0)
    else:
        dist.broadcast(x, 0)
