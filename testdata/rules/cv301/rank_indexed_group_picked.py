# A group picked by the rank is still a group of several ranks: a test
# that picks one rank (rather than bounding the index) leaves the other
# members out.
import torch
import torch.distributed as dist


def first_pair_only(x):
    rank = dist.get_rank()
    world = dist.get_world_size()
    groups = [dist.new_group([i, i + 1]) for i in range(world - 1)]
    if rank == 0:
        dist.all_reduce(x, group=groups[rank])  # want CV301 "all_reduce .*runs only when `rank == 0` holds"
    return x


def bounded_and_flagged(x, flag):
    rank = dist.get_rank()
    world = dist.get_world_size()
    groups = [dist.new_group([i, i + 1]) for i in range(world - 1)]
    if rank > 0 and flag.item() > 0:
        dist.all_reduce(x, group=groups[rank - 1])  # want CV301 "all_reduce"
    return x
