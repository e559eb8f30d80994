# Helpers that forward their async flag: no caller asks for async work, or
# the handle goes back to the caller, or the helper waits when it must.
# A caller that forwards its own flag is not followed further.
import torch
import torch.distributed as dist


def all_to_all_tensor(local_tensor, group=None, async_op=False):
    outputs = [torch.empty_like(local_tensor)]
    dist.all_to_all(outputs, [local_tensor], group=group, async_op=async_op)
    return torch.cat(outputs)


def all_reduce(tensor, group=None, async_op=False):
    return dist.all_reduce(tensor, group=group, async_op=async_op)


def reduce_maybe_async(t, async_op=False):
    work = dist.all_reduce(t, async_op=async_op)
    if async_op:
        return work
    return None


def sync_callers(x):
    y = all_to_all_tensor(x)
    z = all_to_all_tensor(y, async_op=False)
    return z


def forwards(x, async_op=False):
    return all_to_all_tensor(x, async_op=async_op)


def waited(t):
    h = all_reduce(t, async_op=True)
    h.wait()
    work = reduce_maybe_async(t, async_op=True)
    work.wait()
    return t


def guarded(t, async_op=False):
    work = dist.all_reduce(t, async_op=async_op)
    if work:
        work.wait()
    return t


def early_out(t, async_op=False):
    work = dist.all_reduce(t, async_op=async_op)
    if work is None:
        return t
    work.wait()
    return t


def asks(t):
    guarded(t, async_op=True)
    early_out(t, async_op=True)


def seq_all_to_all(local_tensor, group=None, async_op=False):
    outputs = [torch.empty_like(local_tensor)]
    dist.all_to_all(outputs, [local_tensor], group=group, async_op=async_op)
    return torch.cat(outputs)


class SeqAllToAll(torch.autograd.Function):
    # apply passes no ctx: its third argument (False) is async_op, and the
    # True after it is `flag`.
    @staticmethod
    def forward(ctx, group, local_tensor, async_op=False, flag=False):
        ctx.flag = flag
        return seq_all_to_all(local_tensor, group, async_op)

    @staticmethod
    def backward(ctx, grad):
        return None, grad, None, None


def gather(x, group):
    return SeqAllToAll.apply(group, x, False, True)


def send_to_next(tensor, dst, group=None, async_op=False):
    # The handle exists only under `if async_op:`, and no caller passes it
    # (Megalodon's chunk-parallel mappings assert it is None).
    if async_op:
        handle = dist.isend(tensor, dst, group=group)
    else:
        dist.send(tensor, dst, group=group)
        handle = None
    return tensor, handle


def send_sync(x):
    out, handle = send_to_next(x, 1)
    assert handle is None
    return out
