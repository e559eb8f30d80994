# Ranks past a preset world size leave before the default group is made
# with exactly that size (open_lm): they were never members of it.
import os
import sys

import torch.distributed as dist


def init(args):
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    if args.preset_world_size is not None:
        world_size = args.preset_world_size
        if rank >= world_size:
            sys.exit(0)
    dist.init_process_group("nccl", world_size=world_size, rank=rank)
    dist.barrier()
