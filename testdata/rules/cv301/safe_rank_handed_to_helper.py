# Values merely computed from the rank are not the rank: a helper's test
# on the group of this rank is a membership test on every member, as in
# torch's own collectives. A helper that tests the rank only for its side
# effects is fine too.
import torch.distributed as dist


def broadcast_in(group, t):
    if group is None:
        return t
    dist.broadcast(t, src=0, group=group)
    return t


def log(rank, msg):
    if rank == 0:
        print(msg)
    dist.barrier()


def main(groups, t):
    rank = dist.get_rank()
    broadcast_in(groups[rank], t)
    log(rank, "done")
