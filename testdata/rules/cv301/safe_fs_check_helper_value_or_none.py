# Loaders whose result is no file system answer: one raises when the
# file is missing (every rank that goes on holds the state), one returns
# None on more than a failed check; and a caller that lets rank 0 decide
# for everyone.
import os

import torch
import torch.distributed as dist


def load_or_fail(path):
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    return torch.load(path, map_location="cpu")


def load_unless_disabled(path, enabled):
    if not enabled:
        return None
    if os.path.exists(path):
        return torch.load(path, map_location="cpu")
    return torch.zeros(1)


def load_or_none(path):
    if not os.path.exists(path):
        return None
    return torch.load(path, map_location="cpu")


def sync_loaded(path, enabled):
    ckpt = load_or_fail(path)
    if ckpt is not None:
        dist.all_reduce(ckpt["t"])
    state = load_unless_disabled(path, enabled)
    if state is not None:
        dist.all_reduce(state)


def agreed(path):
    ckpt = load_or_none(path)
    flag = [ckpt is not None]
    dist.broadcast_object_list(flag, src=0)
    if flag[0]:
        dist.all_reduce(ckpt["t"])


def find_latest(directory):
    best = -1
    for sub in os.listdir(directory):
        if sub.startswith("state_"):
            best = max(best, int(sub[6:]))
    if best == -1:
        return None, 0
    return f"{directory}/state_{best}", best + 1


def resume_agreed(t):
    # Rank 0 looks, and every rank takes its answer.
    found = [find_latest("ckpt")]
    dist.broadcast_object_list(found, src=0)
    path, start = found[0]
    if path:
        dist.broadcast(t, src=0)
