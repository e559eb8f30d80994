# The else arm of the launcher test starts the group from SLURM's
# variables: it is no single-process arm, and the flag it sets for every
# rank there (and the launcher arm's) is the same on all ranks.
import os

import torch
import torch.distributed as dist


def is_torchrun():
    return all(v in os.environ for v in ["MASTER_ADDR", "RANK", "WORLD_SIZE"])


def run():
    if is_torchrun():
        dist.init_process_group("nccl")
        verbose = True
    else:
        dist.init_process_group("nccl", rank=int(os.environ["SLURM_PROCID"]), world_size=int(os.environ["SLURM_NTASKS"]))
        verbose = False
    t = torch.ones(1)
    if verbose:
        dist.all_reduce(t)
