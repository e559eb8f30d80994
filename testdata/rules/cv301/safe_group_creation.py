# Every rank creates every group and keeps the one it belongs to; or only
# the members create it, which use_local_synchronization allows.
import torch.distributed as dist


def tp_groups(all_tp_ranks):
    rank = dist.get_rank()
    mine = None
    for ranks in all_tp_ranks:
        group = dist.new_group(ranks)
        if rank in ranks:
            mine = group
    return mine


def local_sync(ranks):
    if dist.get_rank() in ranks:
        return dist.new_group(ranks, use_local_synchronization=True)
    return None


def local_sync_flag(ranks, local):
    if dist.get_rank() in ranks:
        return dist.new_group(ranks, None, None, None, local)
    return None
