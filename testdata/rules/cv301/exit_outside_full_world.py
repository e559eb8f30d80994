# The ranks past the preset leave, but the group is made with the
# launcher's full world size: the others wait for them in its creation.
import os
import sys

import torch.distributed as dist


def init(args):
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    if rank >= args.preset_world_size:
        sys.exit(0)
    dist.init_process_group("nccl", world_size=world_size, rank=rank)  # want CV301 "do not leave early"
    dist.barrier()
