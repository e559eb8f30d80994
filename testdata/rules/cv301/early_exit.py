import os

import torch.distributed as dist


def finalize(stats):
    if dist.get_rank() != 0:
        return
    dist.all_reduce(stats)  # want CV301 "do not leave early"


def exit_quietly():
    # raise SystemExit(0) is sys.exit(0): a clean exit, not a failure the
    # launcher tears the job down for.
    if dist.get_rank() != 0:
        raise SystemExit(0)
    dist.barrier()  # want CV301 "do not leave early"


def non_zero_ranks_leave(x):
    # local_rank > 0 is a rank test (unlike >= 0, which asks whether the
    # job is distributed at all).
    local_rank = int(os.environ.get("LOCAL_RANK", "-1"))
    if local_rank > 0:
        return None
    dist.all_reduce(x)  # want CV301 "do not leave early"
    return x
