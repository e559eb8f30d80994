# The elif's arm issues something else than the if's, or the arms issue
# on the default group, which every rank must join: the ranks of neither
# arm, or of one, do not issue it.
import torch
import torch.distributed as dist


def uneven_arms(src, dst, device):
    me = dist.get_rank()
    g = dist.new_group(ranks=[src, dst])
    a = torch.zeros(1, device=device)
    if src == me:
        dist.broadcast(a, src=src, group=g)
        dist.all_reduce(a, group=g)  # want CV301 "all_reduce on group new_group"
    elif dst == me:
        dist.broadcast(a, src=src, group=g)  # want CV301 "broadcast on group new_group.*`dst == me`"
    return g


def default_group(src, dst, device):
    me = dist.get_rank()
    a = torch.zeros(1, device=device)
    if src == me:
        dist.broadcast(a, src=src)
    elif dst == me:
        dist.broadcast(a, src=src)  # want CV301 "broadcast on the default group"
