# A handle list carried across the passes of an inner loop, waited by a
# helper before each pass rebinds it, and once more after the loops
# (weipipe's weight-flow schedule).
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
    b_reqs = None
    for i in range(n_outer):
        for j in range(n_inner):
            wait(b_reqs)
            b_reqs = flow(send, recv)
            wait(g_reqs)
            g_reqs = flow(recv, send)
    wait(g_reqs)
    wait(b_reqs)
