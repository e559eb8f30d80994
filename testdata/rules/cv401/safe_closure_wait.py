# The handle is waited by a nested closure that the helper returns (its
# caller calls it after overlapping other work) or calls itself.
import torch
import torch.distributed as dist


def all_to_all(x, group=None, async_op=False):
    out = torch.empty_like(x)
    comm = dist.all_to_all_single(out, x, group=group, async_op=async_op)
    if async_op:

        def wait():
            comm.wait()
            return out

        return wait
    return out


def forward(x, group):
    res = all_to_all(x, group=group, async_op=True)
    y = x * 2  # overlap
    return res() + y


def called(x):
    out = torch.empty_like(x)
    comm = dist.all_to_all_single(out, x, async_op=True)

    def wait():
        comm.wait()
        return out

    y = x * 2
    return wait() + y


def pipelined(params, buf, views):
    # The closure is defined before any handle exists and reads the
    # enclosing function's latest one: every pass but the first waits the
    # previous pass's handle, and the call after the loop waits the last
    # (sparsify's Muon step).
    handle = None

    def finish_prev():
        handle.wait()
        for p, g in zip(params, views):
            p.add_(g.view_as(p))

    for i in range(len(params)):
        if i > 0:
            finish_prev()
        handle = dist.all_gather_into_tensor(buf, params[i].grad.flatten(), async_op=True)
    finish_prev()
