# One checkpointer, two async modes on its gloo group: a thread-mode
# async_save plans on a background thread, a PROCESS-mode one in the
# checkpoint daemon process. The PROCESS-mode call issues nothing on the
# group from the main thread, so the two do not pair.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType


class Checkpointer:
    def __init__(self, mode):
        self.mode = mode
        self.pg = dist.new_group(backend="gloo")
        self.future = None

    def save(self, state, path):
        if self.future is not None:
            self.future.result()
        if self.mode == "thread":
            self.future = dcp.async_save(state, checkpoint_id=path, process_group=self.pg)
        else:
            self.future = dcp.async_save(
                state,
                checkpoint_id=path,
                process_group=self.pg,
                async_checkpointer_type=AsyncCheckpointerType.PROCESS,
            )
