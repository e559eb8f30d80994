# The loop's target holds the output only after the wait, or holds a
# tensor that the name no longer names when the collective runs.
import torch
import torch.distributed as dist


def scale_after_wait(a, b):
    outs = [a, b]
    work = dist.all_reduce(a, async_op=True)
    work.wait()
    for t in outs:
        t.div_(2)


def old_binding(a, b):
    outs = [a, b]
    a = torch.zeros_like(b)
    work = dist.all_reduce(a, async_op=True)
    for t in outs:
        t.div_(2)
    work.wait()
    return a


def other_list(a, b, c):
    outs = [b, c]
    work = dist.all_reduce(a, async_op=True)
    for t in outs:
        t.div_(2)
    work.wait()
