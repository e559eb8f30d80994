# The ranks other than 0 take one of two arms, and both issue the same
# all_reduce: every rank issues exactly one.
import torch
import torch.distributed as dist


def step(flag):
    t = torch.ones(1)
    if dist.get_rank() == 0:
        dist.all_reduce(t)
    elif flag:
        dist.all_reduce(t)
    else:
        dist.all_reduce(t)


def step_nested(flag, mode):
    t = torch.ones(1)
    if dist.get_rank() == 0:
        dist.broadcast(t, 0)
    else:
        if flag:
            t.mul_(2)
            dist.broadcast(t, 0)
        elif mode == "eval":
            dist.broadcast(t, 0)
        else:
            dist.broadcast(t, 0)
