# The two modes again, with a barrier on the checkpointer's group from the
# main thread: the thread-mode save's planning collectives still race it.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType


class Checkpointer:
    def __init__(self, mode):
        self.mode = mode
        self.pg = dist.new_group(backend="gloo")

    def save(self, state, path):
        if self.mode == "thread":
            dcp.async_save(state, checkpoint_id=path, process_group=self.pg)  # want CV101 "async_save runs collectives on group new_group@.* from a library background thread while the main thread issues barrier"
        else:
            dcp.async_save(
                state,
                checkpoint_id=path,
                process_group=self.pg,
                async_checkpointer_type=AsyncCheckpointerType.PROCESS,
            )
        dist.barrier(group=self.pg)
