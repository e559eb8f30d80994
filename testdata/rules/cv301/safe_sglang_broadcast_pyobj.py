# Every rank calls broadcast_pyobj; the leader's empty list is broadcast
# too, and the others learn from it that there is nothing to do.
import torch.distributed as dist
from sglang.srt.utils import broadcast_pyobj


def recv_requests(requests, cpu_group):
    rank = dist.get_rank()
    requests = broadcast_pyobj(requests if rank == 0 else None, rank, cpu_group, src=0)
    if not requests:
        return []
    return requests
