# A rank-0 helper that keeps the rank in a local before comparing it (and
# one that reads the launcher's variable first, falling back to the
# group): calls of either are rank tests.
import os

import torch
import torch.distributed as dist


def rank0():
    rank = dist.get_rank()
    return rank == 0


def is_leader():
    rank = os.environ.get("RANK")
    if rank is not None:
        return int(rank) == 0
    return dist.get_rank() == 0


def main():
    dist.init_process_group("nccl")
    t = torch.zeros(1, device="cuda")
    if rank0():
        dist.broadcast(t, src=0)  # want CV301 "runs only when `rank0\(\)` holds"
    if is_leader():
        dist.all_reduce(t)  # want CV301 "runs only when `is_leader\(\)` holds"
