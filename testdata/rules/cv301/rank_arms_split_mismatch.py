# The second if issues another collective than the first's else arm, or
# one collective runs between them: the arms do not complete each other.
import torch.distributed as dist


def mismatched(t, grp):
    rank = dist.get_rank()
    if rank == 0:
        t.mul_(2)
    else:
        dist.barrier(group=grp)  # want CV301 "barrier"
    if rank == 0:
        dist.all_reduce(t, group=grp)  # want CV301 "all_reduce"


def interleaved(t, grp):
    rank = dist.get_rank()
    if rank == 0:
        t.mul_(2)
    else:
        dist.barrier(group=grp)  # want CV301 "barrier"
    dist.all_reduce(t, group=grp)
    if rank == 0:
        dist.barrier(group=grp)  # want CV301 "barrier"
