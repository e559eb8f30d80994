# A helper that hands back the isend's handle wherever there is a peer
# (None in a single process) leaves the wait to its caller; a ring that
# never waits it reuses the send buffer while the send may be in flight.
import torch
import torch.distributed as dist


def post_isend(t, dst):
    if dist.get_world_size() > 1:
        return dist.isend(t, dst=dst)
    return None


def post_irecv(t, src):
    if dist.get_world_size() > 1:
        return dist.irecv(t, src=src)
    return None


def ring(x, steps):
    rank, world = dist.get_rank(), dist.get_world_size()
    cur, nxt = x, torch.empty_like(x)
    for _ in range(steps):
        rreq = post_irecv(nxt, (rank - 1) % world)
        sreq = post_isend(cur, (rank + 1) % world)  # want CV401 "isend that post_isend returns"
        if rreq is not None:
            rreq.wait()
        cur, nxt = nxt, cur
    return cur


def ring_waited(x, steps):
    rank, world = dist.get_rank(), dist.get_world_size()
    cur, nxt = x, torch.empty_like(x)
    for _ in range(steps):
        rreq = post_irecv(nxt, (rank - 1) % world)
        sreq = post_isend(cur, (rank + 1) % world)
        if rreq is not None:
            rreq.wait()
        if sreq is not None:
            sreq.wait()
        cur, nxt = nxt, cur
    return cur
