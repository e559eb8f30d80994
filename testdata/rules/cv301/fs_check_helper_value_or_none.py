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


def latest_ctrl(d):
    # The value where the check holds, None elsewhere.
    if os.path.exists(d):
        return d + "/latest"
    return None


def latest_listed(d):
    # The last entry of this host's listing.
    best = None
    for sub in os.listdir(d):
        best = sub
    return best


def find_latest(directory):
    # A path and the epoch to resume from, from this host's listing.
    best = -1
    for sub in os.listdir(directory):
        if sub.startswith("state_") and os.path.exists(os.path.join(directory, sub, "done")):
            best = max(best, int(sub[6:]))
    if best == -1:
        return None, 0
    return f"{directory}/state_{best}", best + 1


def resume(t):
    p = latest_ctrl("ckpt")
    if p:
        dist.all_reduce(t)  # want CV301 "which depends on a file system check"
    q = latest_listed("ckpt")
    if q:
        dist.barrier()  # want CV301 "which depends on a file system check"
    path, start = find_latest("ckpt")
    if path:
        dist.broadcast(t, src=0)  # want CV301 "which depends on a file system check"
