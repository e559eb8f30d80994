# A helper hands back None when its allocation runs out of memory
# (EleutherAI's communication benchmarks): the caller's `if x is None:
# return` is taken on the failed rank only, and the others wait for it
# in the all_reduce.
import torch
import torch.distributed as dist


def create_input(n, rank):
    try:
        return torch.ones(n).cuda().mul_(float(rank))
    except RuntimeError as e:
        if "out of memory" in str(e):
            return None
        raise e


def run(n):
    rank = dist.get_rank()
    x = create_input(n, rank)
    if x is None:
        return
    dist.all_reduce(x)  # want CV301 "skipped on a rank that runs out of memory"


def run_guarded(n):
    x = create_input(n, dist.get_rank())
    if x is not None:
        dist.all_reduce(x)  # want CV301 "runs out of memory"
