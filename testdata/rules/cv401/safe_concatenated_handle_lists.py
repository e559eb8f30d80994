# Handles filed in two lists and waited by iterating them one after the
# other: `for r in out_reqs + in_reqs`, itertools.chain (docom's gossip
# aggregation).
import itertools

import torch
import torch.distributed as dist


def exchange(send, recv, rank, world):
    out_reqs, in_reqs = [], []
    out_reqs.append(dist.isend(send, dst=(rank + 1) % world))
    in_reqs.append(dist.irecv(recv, src=(rank - 1) % world))
    for r in out_reqs + in_reqs:
        r.wait()
    return recv


def exchange_chain(send, recv, rank, world):
    a, b = [], []
    a.append(dist.isend(send, dst=(rank + 1) % world))
    b.append(dist.irecv(recv, src=(rank - 1) % world))
    for r in itertools.chain(a, b):
        r.wait()
    return recv
