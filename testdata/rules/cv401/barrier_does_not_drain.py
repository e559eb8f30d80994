# The barrier runs on another group, only on one path, or after the
# buffers are read: it does not complete the broadcasts.
import torch
import torch.distributed as dist


def other_group(x, sizes, other):
    out = []
    for i, n in enumerate(sizes):
        t = x.new_empty((n,))
        dist.broadcast(t, src=i, async_op=True)  # want CV401 "discarded"
        out.append(t)
    dist.barrier(group=other)
    return torch.cat(out, dim=0)


def one_path(x, sync):
    dist.broadcast(x, src=0, async_op=True)  # want CV401 "discarded"
    if sync:
        dist.barrier()
    return x * 2


def p2p_not_drained(x):
    dist.isend(x, dst=1)  # want CV401 "discarded"
    dist.barrier()
