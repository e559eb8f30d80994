# async_save with the thread-based checkpointer (the default, named
# explicitly): the background thread plans on the default group while
# the main thread's barrier runs on it too.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType


def save(state, path):
    fut = dcp.async_save(state, checkpoint_id=path, async_checkpointer_type=AsyncCheckpointerType.THREAD)  # want CV101 "async_save.* default group"
    dist.barrier()
    return fut
