# Pipelined point-to-point loops: each pass first waits (or hands to a
# helper that waits) the work the previous pass left in the variable,
# then fires the next batch. Nothing is dropped.
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
