# The handle is filed with its buffer, and the buffer is divided only
# after the wait that takes it back.
import torch
import torch.distributed as dist


class CommManager:
    def __init__(self):
        self.pending = {}

    def allreduce_avg_async(self, tensors):
        flat = torch.cat([t.flatten() for t in tensors])
        work = dist.all_reduce(flat, op=dist.ReduceOp.SUM, async_op=True)
        self.pending["h"] = {"work": work, "flat": flat}
        return "h"

    def wait(self, h):
        op = self.pending.pop(h)
        op["work"].wait()
        return op["flat"].div_(dist.get_world_size())
