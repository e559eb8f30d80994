import torch.distributed as dist


def step(grad):
    dist.all_reduce(grad, async_op=True)
    return grad


def send_both(t, u):
    req = dist.isend(t, 1)
    req = dist.isend(u, 1)
    req.wait()


def recv_maybe(buf, skip):
    req = dist.irecv(buf, 0)
    if skip:
        return None
    req.wait()
    return buf


def exchange(x, y, peer):
    reqs = dist.batch_isend_irecv([dist.P2POp(dist.isend, x, peer)])
    return y


def all_to_all(outputs, inputs, group=None, async_op=False):
    dist.all_to_all(outputs, inputs, group=group, async_op=async_op)
    return outputs


def reduce_then_scale(t, async_op=False):
    h = dist.all_reduce(t, async_op=async_op)
    return t * 2


def overlapped(outputs, inputs, t):
    all_to_all(outputs, inputs, async_op=True)
    return reduce_then_scale(t, async_op=True)


def coalesced(group, ts):
    from torch.distributed.distributed_c10d import _coalescing_manager

    with _coalescing_manager(group, async_ops=True) as cm:
        for t in ts:
            dist.all_reduce(t, group=group, async_op=True)
    return ts


def coalesced_no_handle(group, ts):
    from torch.distributed.distributed_c10d import _coalescing_manager

    with _coalescing_manager(group, async_ops=True):
        for t in ts:
            dist.all_reduce(t, group=group, async_op=True)
    return ts


def broadcast_all(params, group):
    reqs = [
        dist.broadcast(p, 0, group=group, async_op=True)
        for p in params
    ]
    return params[0]


def filed_in_loops(ts):
    works = []
    for t in ts:
        for part in t.chunk(2):
            works.append(dist.all_reduce(part, async_op=True))
    return ts


def filed_then_left(ts, stop):
    reqs = []
    reqs.append(dist.isend(ts[0], 1))
    if stop:
        return None
    for r in reqs:
        r.wait()
    return ts
