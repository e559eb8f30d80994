# Waiting the newer work waits the older one only when both run on one
# device communicator, in issue order. Across two groups, or when the
# last work is never waited, the handles are lost.
import torch.distributed as dist


def two_groups(a, b, intra, inter):
    work = dist.all_reduce(a, group=intra, async_op=True)  # want CV401 "rebound"
    work = dist.all_reduce(b, group=inter, async_op=True)
    work.wait()


def last_never_waited(tensors, group):
    last = None
    for t in tensors:
        last = dist.all_reduce(t, group=group, async_op=True)  # want CV401 "never waited"
    return tensors


def one_group_per_edge(bufs, in_edges, groups):
    # Each pass broadcasts on the edge's own group, so the last pass's
    # wait does not cover the earlier passes' work (DoCoM's in-edges).
    for src in in_edges:
        work = dist.broadcast(bufs[src], src=src, group=groups[src], async_op=True)  # want CV401 "rebound"
    work.wait()


def list_rebound_each_pass(bufs, in_edges, groups):
    # `in_reqs = []` at the top of each pass drops the handles the
    # previous pass filed; only the last edge's handle is returned.
    in_reqs = []
    for src in in_edges:
        in_reqs = []
        in_reqs.append(dist.broadcast(bufs[src], src=src, group=groups[src], async_op=True))  # want CV401 "rebound at line"
    return in_reqs
