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
