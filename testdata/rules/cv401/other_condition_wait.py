# The wait is guarded by another condition than the one the handle was
# made under: where only the first holds, the handle is never waited.
import torch.distributed as dist


def gather_then_use(x, group, sequence_parallel, overlap):
    if group is not None and sequence_parallel:
        h = dist.all_reduce(x, group=group, async_op=True)  # want CV401 "is not waited on the path that leaves the function"
    y = x.float()
    if group is not None and overlap:
        h.wait()
    return y
