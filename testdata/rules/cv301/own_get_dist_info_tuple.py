# A program's own copy of mmcv's get_dist_info returns (rank,
# world_size): its first element is the rank, its second is not.
import torch.distributed as dist


def get_dist_info():
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    return 0, 1


def unpacked():
    rank, world_size = get_dist_info()
    if rank == 0:
        dist.barrier()  # want CV301 "`rank == 0`"
    if world_size > 1:
        dist.barrier()


def indexed():
    if get_dist_info()[0] == 0:
        dist.barrier()  # want CV301 "get_dist_info\(\)\[0\] == 0"
