# T2 as KempnerForge had it before its fix: a checkpointer that saves with
# dcp.save or dcp.async_save, and a manager that calls it and then waits
# on a barrier of the same (default) group while the async save's
# background thread still runs. The finding names the barrier, the
# conflict, not the synchronous save on the other branch.
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


class AsyncCheckpointer:
    def __init__(self, use_async):
        self.use_async = use_async
        self.pending = None

    def wait(self):
        if self.pending is not None:
            self.pending.result()
            self.pending = None

    def save(self, state, path):
        self.wait()
        if not self.use_async:
            dcp.save(state, checkpoint_id=path)
        else:
            self.pending = dcp.async_save(state, checkpoint_id=path)  # want CV101 "async_save.*issues barrier on the same group"


class CheckpointManager:
    def __init__(self, use_async):
        self.ckpt = AsyncCheckpointer(use_async)

    def save(self, state, path):
        self.ckpt.save(state, path)
        dist.barrier()
