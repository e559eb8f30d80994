# Inside _coalescing_manager the operations are batched: their own
# handles are placeholders, and the manager (cm.wait(), or its exit when
# not async) completes them (Megatron's grad buffers, FSDP).
import torch.distributed as dist
from torch.distributed.distributed_c10d import _coalescing_manager


def coalesced(group, ts):
    with _coalescing_manager(group, async_ops=True) as cm:
        for t in ts:
            dist.all_reduce(t, group=group, async_op=True)
    cm.wait()


def coalesced_param(group, ts, async_op=False):
    with _coalescing_manager(group, async_ops=async_op) as cm:
        for t in ts:
            dist.all_reduce(t, group=group, async_op=async_op)
    if async_op:
        return cm
    return None


def caller(group, ts):
    h = coalesced_param(group, ts, async_op=True)
    h.wait()
