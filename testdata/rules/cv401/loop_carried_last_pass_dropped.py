# Each pass waits the previous pass's work, but the work of the last pass
# is rebound after the loop without a wait.
import torch.distributed as dist


def _wait(works):
    for w in works:
        w.wait()


def _batch(ops):
    return dist.batch_isend_irecv(ops)


def cooldown_drops_last(n, ops_for):
    send_work = []
    for i in range(n):
        _wait(send_work)
        send_work = _batch(ops_for(i))  # want CV401 "rebound at line 20 before it is waited"
    send_work = _batch(ops_for(n))
    _wait(send_work)


def waits_every_other_pass(n, ops_for):
    works = []
    for i in range(n):
        if i % 2 == 0:
            for w in works:
                w.wait()
        works = dist.batch_isend_irecv(ops_for(i))  # want CV401 "rebound at line 30 before it is waited"
    for w in works:
        w.wait()
