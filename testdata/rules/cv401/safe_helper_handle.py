# Handles a helper hands back that are waited, kept or passed on; and
# calls that do not ask for async work, or a helper that hands its handle
# back only when asked (torch's own `if async_op: return work`).
import torch
import torch.distributed as dist


def all_gather_async(t, group, async_op=False):
    out = torch.empty(t.numel() * dist.get_world_size(group), dtype=t.dtype, device=t.device)
    handle = dist.all_gather_into_tensor(out, t, group=group, async_op=async_op)
    return out, handle


def reduce_maybe_async(t, async_op=False):
    work = dist.all_reduce(t, async_op=True)
    if async_op:
        return work
    work.wait()
    return None


def waited(x, group):
    y, h = all_gather_async(x, group, async_op=True)
    h.wait()
    return y


def kept(xs, group):
    handles = []
    for x in xs:
        _, h = all_gather_async(x, group, async_op=True)
        handles.append(h)
    for h in handles:
        h.wait()


def handed_on(x, group):
    y, h = all_gather_async(x, group, async_op=True)
    return y, h


def synchronous(x, group):
    y, _ = all_gather_async(x, group)
    z, _ = all_gather_async(y, group, async_op=False)
    reduce_maybe_async(z)
    return z
