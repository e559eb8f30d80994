# Swallowed errors that strand no rank: the collective opens the try body
# (it ran on every rank before anything else could raise), the handler
# re-raises, or nothing communicates after the try.
import torch
import torch.distributed as dist


def opens_body(t, path):
    try:
        dist.all_reduce(t)
        torch.save(t, path)
    except Exception:
        print("save failed")
    dist.barrier()


def reraised(model, batch, grads):
    try:
        model(batch).sum().backward()
        dist.all_reduce(grads)
    except Exception:
        print("failed")
        raise
    dist.barrier()


def last_words(t):
    try:
        t = t * 2
        dist.all_reduce(t)
    except Exception:
        print("final sync failed")
    return t


def one_sync(t):
    dist.all_reduce(t)
    return t.item()


def helper_with_one_collective(t):
    # The helper's one collective opens it: every rank issued it before
    # anything there could raise.
    try:
        one_sync(t)
    except Exception:
        print("sync failed")
    dist.barrier()
