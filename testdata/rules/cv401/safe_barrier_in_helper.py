# A benchmark's fence in a helper: the blocking barrier on the default group
# completes the async all-reduces issued before the call.
import torch
import torch.distributed as dist


def sync_all():
    torch.cuda.synchronize()
    dist.barrier()


def timed_all_reduce(tensor, trials):
    sync_all()
    for _ in range(trials):
        dist.all_reduce(tensor, async_op=True)
    sync_all()
    return tensor.sum().item()
