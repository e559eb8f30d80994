# The helper's barrier runs only when the check before it passes: the
# async all-reduce may be left in flight.
import torch
import torch.distributed as dist


def fence(enabled):
    if not enabled:
        return
    dist.barrier()


def timed_all_reduce(tensor, enabled):
    dist.all_reduce(tensor, async_op=True)  # want CV401 "discarded"
    fence(enabled)
    return tensor.sum().item()
