# The partial binds no group: the collective runs on WORLD, which the
# ranks outside `ranks` never join.
import functools

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    ranks = [0, 1]
    dist.new_group(ranks)
    t = torch.ones(1, device="cuda")
    op = functools.partial(dist.all_reduce, async_op=False)
    if dist.get_rank() in ranks:
        op(t)  # want CV301 "all_reduce on the default group"
