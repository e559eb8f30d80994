# The non-zero ranks leave early only when collect_by_master is set, and
# the barrier after runs only when it is not: every rank reaches it, or
# none does.
import torch.distributed as dist


def gather_parts(part, collect_by_master=True):
    rank = dist.get_rank()
    dist.barrier()
    if collect_by_master and rank != 0:
        return None
    results = [part]
    if not collect_by_master:
        dist.barrier()
    return results
