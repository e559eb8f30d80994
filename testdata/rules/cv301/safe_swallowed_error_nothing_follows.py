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
