# Only one of the two lists is iterated: the other's handles are never
# waited.
import torch
import torch.distributed as dist


def exchange(send, recv, rank, world, extra):
    out_reqs, in_reqs, more = [], [], []
    out_reqs.append(dist.isend(send, dst=(rank + 1) % world))
    in_reqs.append(dist.irecv(recv, src=(rank - 1) % world))
    more.append(dist.isend(extra, dst=(rank + 1) % world))  # want CV401 "\"more\""
    for r in out_reqs + in_reqs:
        r.wait()
    return recv
