# T2 (KempnerForge#104): async_save's background thread and the main
# thread's barrier share the default group.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def save(state, path):
    fut = dcp.async_save(state, checkpoint_id=path)  # want CV101 "async_save.* default group"
    dist.barrier()
    return fut
