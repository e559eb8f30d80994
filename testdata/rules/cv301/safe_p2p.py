import torch.distributed as dist


def exchange(x):
    rank = dist.get_rank()
    if rank == 0:
        dist.send(x, 1)
    elif rank == 1:
        dist.recv(x, 0)
