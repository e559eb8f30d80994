# async_save with the process-based checkpointer: the planning
# collectives run in a checkpoint daemon process on a gloo group of its
# own, so the main thread's barrier on the default group meets no other
# thread of this process.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType


def save(state, path):
    fut = dcp.async_save(state, checkpoint_id=path, async_checkpointer_type=AsyncCheckpointerType.PROCESS)
    dist.barrier()
    return fut
