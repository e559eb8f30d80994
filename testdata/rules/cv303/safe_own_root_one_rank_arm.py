# The rank that owns the data broadcasts it as the root; everyone else
# names that rank. The arm that names itself runs on one rank only.
import torch.distributed as dist

OWNER = 1


def share(t):
    rank = dist.get_rank()
    if rank == OWNER:
        dist.broadcast(t, src=rank)
    else:
        dist.broadcast(t, src=OWNER)
    return t


def share_all(bufs):
    rank = dist.get_rank()
    if rank != 0:
        # Every non-zero rank takes its turn as the root, in the same order.
        for src in range(1, dist.get_world_size()):
            if src == rank:
                dist.broadcast(bufs[src], src=rank)
            else:
                dist.broadcast(bufs[src], src=src)
