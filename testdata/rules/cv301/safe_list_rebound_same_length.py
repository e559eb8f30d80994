# The arm rebinds the list to one of the same length, or the list is
# bound again on every rank before the loop.
import torch.distributed as dist


def evaluate(x):
    dist.barrier()


def same_length(a, b):
    items = [a, b]
    if dist.get_rank() == 0:
        items = [b, a]
    for x in items:
        evaluate(x)


def rebound_after(a, b, cfg):
    items = cfg.items
    if dist.get_rank() == 0:
        items = [a]
    items = [a, b]
    for x in items:
        evaluate(x)
