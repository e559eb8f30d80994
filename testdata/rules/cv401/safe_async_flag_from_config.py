# Configured async flags whose handles are kept and waited, or that no
# configuration reaches.
import torch
import torch.distributed as dist


def guarded(t, async_op=False):
    work = dist.all_reduce(t, async_op=async_op)
    if work is not None:
        work.wait()
    return t


def kept(t, cfg):
    # A kept handle is waited under the same flag: not tracked, not reported.
    work = dist.all_reduce(t, async_op=cfg.async_op)
    if cfg.async_op:
        work.wait()
    return t


def dropped_sync(t, async_op=False):
    dist.all_reduce(t, async_op=async_op)
    return t


def local_flag(t):
    overlap = False
    return dropped_sync(t, async_op=overlap)


def run(t, args):
    guarded(t, async_op=args.async_comm)
    kept(t, args)
    dropped_sync(t)
    dropped_sync(t, async_op=False)
    local_flag(t)
