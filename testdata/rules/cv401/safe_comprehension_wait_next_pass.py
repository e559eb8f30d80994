# Each pass waits, with a list comprehension at its top, the handles the
# pass before bound, and the last pass's are waited after the loop (a
# ring attention's send/receive of the next block).
import torch.distributed as dist


def send(t, g):
    return dist.batch_isend_irecv([dist.P2POp(dist.isend, t, (g.rank() + 1) % g.size(), g)])


def ring(t, g, n):
    for step in range(n):
        if step > 0:
            [r.wait() for r in reqs]
        reqs = send(t, g)
    [r.wait() for r in reqs]


def ring_unconditional(t, g, n):
    reqs = send(t, g)
    for step in range(n):
        [r.wait() for r in reqs]
        reqs = send(t, g)
    [r.wait() for r in reqs]
