# _coalescing_manager(async_ops=True) issues the batched operations at
# the block's exit and hands their work to cm: nothing waits for it when
# cm is dropped or never waited.
import torch.distributed as dist
from torch.distributed.distributed_c10d import _coalescing_manager


def never_waited(group, ts):
    with _coalescing_manager(group, async_ops=True) as cm:  # want CV401 "cm"
        for t in ts:
            dist.all_reduce(t, group=group, async_op=True)
    return ts


def no_handle(group, ts):
    with _coalescing_manager(group, async_ops=True):  # want CV401 "_coalescing_manager"
        for t in ts:
            dist.all_reduce(t, group=group, async_op=True)
    return ts
