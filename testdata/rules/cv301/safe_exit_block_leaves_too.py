# Under `if flag:` the other ranks leave, and rank 0 restarts and leaves
# too at the end of the same block (rl_games' PBT restart): no rank
# reaches the all_reduce from inside it.
import os

import torch.distributed as dist


def tick(flag, stats, restart):
    rank = dist.get_rank()
    dist.broadcast(flag, src=0)
    if flag.item() == 1:
        if rank != 0:
            os._exit(0)
        restart()
        return
    dist.all_reduce(stats)


def tick_loop(flags, stats, log):
    for flag in flags:
        if flag:
            if dist.get_rank() != 0:
                break
            log()
            break
        dist.all_reduce(stats)
