# InternLM's fused dense layers: the handle is made and waited under the
# same conditions (written as one and, or nested ifs in another order);
# where they are false there is no handle to wait.
import torch.distributed as dist


def gather_then_use(x, group, sequence_parallel):
    if group is not None and sequence_parallel:
        h = dist.all_reduce(x, group=group, async_op=True)
    y = x.float()
    if group is not None and sequence_parallel:
        h.wait()
    return y


def reordered(x, group, needs_grad):
    if needs_grad:
        if group is not None:
            h = dist.all_reduce(x, group=group, async_op=True)
    y = x.float()
    if group is not None and needs_grad:
        h.wait()
    return y
