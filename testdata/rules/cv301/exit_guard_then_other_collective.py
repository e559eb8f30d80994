# The barrier after the exit is guarded by another flag (or none): the
# ranks that stay issue it while the others have left.
import torch.distributed as dist


def gather_parts(part, collect_by_master=True, sync=True):
    rank = dist.get_rank()
    if collect_by_master and rank != 0:
        return None
    if sync:
        dist.barrier()  # want CV301 "do not leave early"
    return [part]
