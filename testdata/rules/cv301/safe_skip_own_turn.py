# vLLM's peer-to-peer access check: every rank loops over all ranks and
# skips its own index, so it runs world_size - 1 passes like every other
# rank; a collective that is the same in every pass is issued as often
# everywhere.
import torch.distributed as dist


def check_pair(src, tgt):
    dist.barrier()
    return True


def can_p2p(world_size):
    rank = dist.get_rank()
    for i in range(world_size):
        if i == rank:
            continue
        if not check_pair(rank, i):
            return False
    return True


def sum_others(t):
    rank = dist.get_rank()
    for i in range(dist.get_world_size()):
        if rank == i:
            continue
        dist.all_reduce(t)
