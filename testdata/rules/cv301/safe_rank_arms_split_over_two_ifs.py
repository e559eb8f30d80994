# Rank 0 and the other ranks each pass one barrier on the group before
# the common broadcast, from two ifs on the same rank test: the others in
# the else of the first, rank 0 in the second (signSGD's and QSGD's
# leader exchange).
import torch.distributed as dist


def exchange(t, grp):
    rank = dist.get_rank()
    if rank == 0:
        t.mul_(2)
    else:
        dist.barrier(group=grp)
    if rank == 0:
        t.add_(1)
        dist.barrier(group=grp)
    dist.broadcast(t, 0, group=grp)
