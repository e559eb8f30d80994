# The failure path of a check written with the raise in the else arm
# (transformers' deepspeed_load_checkpoint): the ranks that fail die,
# and the launcher ends the job, as for `if not dirs: raise` first.
import glob

import torch.distributed as dist


def load(x, path):
    dirs = sorted(glob.glob(f"{path}/global_step*"))
    if len(dirs) > 0:
        dist.all_reduce(x)
    else:
        raise ValueError(f"Can't find a valid checkpoint at {path}")


def load_rank(x):
    if dist.get_rank() != 0:
        dist.all_reduce(x)
    else:
        raise ValueError("rank 0 has no data")


def load_rank_then_raise(x):
    if dist.get_rank() == 0:
        raise ValueError("rank 0 has no data")
    else:
        dist.all_reduce(x)
