# Reductions to one rank whose result is read where it is defined: on the
# destination only, after a broadcast from it, or all-reduced instead.
import torch
import torch.distributed as dist


def log_on_zero(t):
    dist.reduce(t, dst=0)
    if dist.get_rank() == 0:
        print(t.item())
    dist.barrier()


def validate_broadcast(t):
    dist.reduce(t, dst=0)
    dist.broadcast(t, src=0)
    return t.item() / dist.get_world_size()


def validate_all_reduce(t):
    dist.all_reduce(t)
    return t.item() / dist.get_world_size()


def train(epochs, t, u):
    for epoch in range(epochs):
        log_on_zero(t)
        if validate_broadcast(t) < 0.1:
            break
        if validate_all_reduce(u) < 0.1:
            break
        g = torch.ones(4)
        dist.all_reduce(g)
    dist.barrier()
