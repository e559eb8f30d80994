import os

import torch.distributed as dist


def sync_once():
    rank = int(os.environ["RANK"])
    if rank == 0:
        dist.barrier()  # want CV301 "barrier on the default group .*`rank == 0`"
