# fastai's rank_distrib with a function-local import: the helper still
# returns this process's rank, and the all_reduce runs on rank 0 only.
import torch
import torch.distributed as dist


def rank_distrib():
    import os
    return int(os.environ.get("RANK", 0))


def save_stats(t: torch.Tensor):
    if not rank_distrib():
        dist.all_reduce(t)  # want CV301 "all_reduce on the default group"
    dist.barrier()
