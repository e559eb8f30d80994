# Pipelined point-to-point loops: each pass first waits (or hands to a
# helper that waits) the work the previous pass left in the variable,
# then fires the next batch. Nothing is dropped.
import torch
import torch.distributed as dist


def inline_wait(n, ops_for):
    works = []
    for i in range(n):
        for w in works:
            w.wait()
        works = dist.batch_isend_irecv(ops_for(i))
    for w in works:
        w.wait()


def guarded_wait(n, ops_for):
    req = None
    for i in range(n):
        if req is not None:
            req.wait()
        req = dist.isend(ops_for(i), dst=1)
    if req is not None:
        req.wait()


def _wait(works):
    for w in works:
        w.wait()


def _batch(ops):
    if len(ops) == 0:
        return []
    return dist.batch_isend_irecv(ops)


def warmup_then_cooldown(n, ops_for):
    # The last pass fires nothing, so the rebinding after the loop only
    # drops work the last pass waited.
    send_work = []
    for i in range(n):
        _wait(send_work)
        if i != n - 1:
            send_work = _batch(ops_for(i))
    send_work = _batch(ops_for(n))
    _wait(send_work)


def ring_broadcast(x, group):
    # A loop over every rank runs at least once, so the first broadcast is
    # waited at the top of its first pass; the next is made only where a
    # next pass exists (i < world_size - 1), which waits it first.
    world_size = dist.get_world_size(group=group)
    acc = torch.zeros_like(x)
    work = dist.broadcast(x, src=0, group=group, async_op=True)
    for i in range(world_size):
        work.wait()
        acc += x
        if i < world_size - 1:
            work = dist.broadcast(x, src=i + 1, group=group, async_op=True)
    return acc


def ring_backwards(x, group):
    world_size = dist.get_world_size(group)
    work = dist.broadcast(x, src=world_size - 1, group=group, async_op=True)
    for i in range(world_size - 1, -1, -1):
        work.wait()
        if i > 0:
            work = dist.broadcast(x, src=i - 1, group=group, async_op=True)
    return x
