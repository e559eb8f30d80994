# InternLM's fused dense layers: the handle is made and waited under the
# same conditions (written as one and, or nested ifs in another order);
# where they are false there is no handle to wait.
import torch.distributed as dist


def gather_then_use(x, out, group, sequence_parallel):
    if group is not None and sequence_parallel:
        h = dist.all_gather_into_tensor(out, x, group=group, async_op=True)
    y = x.float()  # the input: reading it while it is sent is fine
    if group is not None and sequence_parallel:
        h.wait()
    return y


def reordered(x, out, group, needs_grad):
    if needs_grad:
        if group is not None:
            h = dist.all_gather_into_tensor(out, x, group=group, async_op=True)
    y = x.float()
    if group is not None and needs_grad:
        h.wait()
    return y


def all_gather_raw(x, group, async_op=False):
    out = x.new_empty(x.shape)
    handle = dist.all_gather_into_tensor(out, x, group=group, async_op=async_op)
    return out, handle


def gathered_by_helper(x, group, sequence_parallel):
    # The handle a helper hands back, made and waited under one condition.
    if group is not None and sequence_parallel:
        total_x, handle_x = all_gather_raw(x, group, async_op=True)
    else:
        total_x = x
    y = x.float()
    if group is not None and sequence_parallel:
        handle_x.wait()
    return y, total_x
