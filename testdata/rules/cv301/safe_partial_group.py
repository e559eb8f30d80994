# A collective bound to its group with functools.partial and issued by
# the group's members only: the group's members all issue it.
import functools

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    ranks = [0, 1]
    g = dist.new_group(ranks)
    t = torch.ones(1, device="cuda")
    op = functools.partial(dist.all_reduce, group=g)
    if dist.get_rank() in ranks:
        op(t)
