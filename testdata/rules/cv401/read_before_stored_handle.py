# The all_reduce's handle is filed for a later wait, but its buffer is
# divided in place right after the call: nothing can have waited yet, so
# the division races the reduction (DistributedSpeed's
# AsyncCommManager.allreduce_async).
import torch
import torch.distributed as dist


class CommManager:
    def __init__(self):
        self.pending = {}

    def allreduce_avg_async(self, tensors):
        flat = torch.cat([t.flatten() for t in tensors])
        work = dist.all_reduce(flat, op=dist.ReduceOp.SUM, async_op=True)
        flat.div_(dist.get_world_size())  # want CV401 "is stored for a wait elsewhere"
        self.pending["h"] = {"work": work, "flat": flat}
        return "h"

    def wait(self, h):
        op = self.pending.pop(h)
        op["work"].wait()
        return op["flat"]
