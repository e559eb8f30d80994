# Rank 0 restarts and falls through to the all_reduce alone.
import os

import torch.distributed as dist


def tick(flag, stats, restart):
    rank = dist.get_rank()
    dist.broadcast(flag, src=0)
    if flag.item() == 1:
        if rank != 0:
            os._exit(0)
        restart()
    dist.all_reduce(stats)  # want CV301 "do not leave early"
