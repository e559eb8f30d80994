# A loader that returns None when this host does not see the file and the
# loaded state otherwise: whether the caller got None is the host's own
# answer, and the collective it gates runs on some ranks only.
import os

import torch
import torch.distributed as dist


def load_or_none(path):
    if not os.path.exists(path):
        return None
    return torch.load(path, map_location="cpu")


def load_and_sync(path):
    ckpt = load_or_none(path)
    if ckpt is not None:
        t = ckpt["t"]
        dist.all_reduce(t)  # want CV301 "a file system check that each rank makes on its own host"
        return t
    return None
