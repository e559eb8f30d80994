# Shapes near the hierarchical one that still diverge: an arm that shares
# no group with the other, an extra collective on the group both arms
# share, and one on the default group.
import torch.distributed as dist


def rank_zero_exchange(x, pg):
    if dist.get_rank() == 0:
        dist.all_reduce(x, group=pg)  # want CV301 "runs only when `dist.get_rank\(\) == 0` holds"


def extra_on_shared_group(x, node_group, src_rank):
    if dist.get_rank() == src_rank:
        dist.gather(x, [x, x], dst=src_rank, group=node_group)
        dist.all_reduce(x, group=node_group)  # want CV301 "runs only when `dist.get_rank\(\) == src_rank` holds"
    else:
        dist.gather(x, dst=src_rank, group=node_group)


def extra_on_world(x, node_group, src_rank):
    if dist.get_rank() == src_rank:
        dist.gather(x, [x, x], dst=src_rank, group=node_group)
        dist.barrier()  # want CV301 "runs only when `dist.get_rank\(\) == src_rank` holds"
    else:
        dist.gather(x, dst=src_rank, group=node_group)
