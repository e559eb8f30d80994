# A rank that passes over some indexes skips collectives on a group every
# rank belongs to, or on one group whatever the index: the others wait in
# them.
import torch
import torch.distributed as dist


def sync(buf, n, groups):
    my_index = dist.get_rank() % n
    for i in range(n):
        if i != my_index:
            continue
        dist.broadcast(buf, src=0)  # want CV301 "do not leave early"
    for i in range(n):
        if i != my_index:
            continue
        dist.all_reduce(buf, group=groups[0])  # want CV301 "do not leave early"
