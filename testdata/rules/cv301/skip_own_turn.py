# Skipping the own turn in a loop over the ranks, where the collective
# changes with the pass: rank i leaves out exactly the pass its peers
# broadcast from it (or reduce its buffer), so they pair different passes.
import torch
import torch.distributed as dist


def exchange(world_size):
    rank = dist.get_rank()
    t = torch.zeros(1)
    for i in range(world_size):
        if i == rank:
            continue
        dist.broadcast(t, src=i)  # want CV301 "broadcast .*do not leave early"


def reduce_each(bufs, world_size):
    rank = dist.get_rank()
    for i in range(world_size):
        if i == rank:
            continue
        dist.all_reduce(bufs[i])  # want CV301 "all_reduce .*do not leave early"


def over_some(t):
    rank = dist.get_rank()
    # Not every rank's index: ranks past 3 skip nothing.
    for i in range(4):
        if i == rank:
            continue
        dist.all_reduce(t)  # want CV301 "all_reduce .*do not leave early"
