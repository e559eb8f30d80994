# The inner loop waits the handle only after it has rebound it: the
# previous pass's transfer is never waited.
import torch.distributed as dist


def wait(reqs):
    if reqs is not None:
        for r in reqs:
            r.wait()


def flow(buf_send, buf_recv):
    rank, world = dist.get_rank(), dist.get_world_size()
    ops = [dist.P2POp(dist.isend, buf_send, (rank + 1) % world), dist.P2POp(dist.irecv, buf_recv, (rank - 1) % world)]
    return dist.batch_isend_irecv(ops)


def step(send, recv, n_outer, n_inner):
    g_reqs = None
    for i in range(n_outer):
        for j in range(n_inner):
            g_reqs = flow(send, recv)  # want CV401 "rebound at line 22 before it is waited"
            send, recv = recv, send
        wait(g_reqs)
