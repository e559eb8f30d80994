# SGLang's broadcast_pyobj broadcasts a pickled list over its group (its
# size, then its bytes): a leader that returns early when it has no
# requests leaves the others waiting in it (Parallax's executor).
import torch.distributed as dist
from sglang.srt.utils import broadcast_pyobj


def recv_requests(requests, cpu_group):
    rank = dist.get_rank()
    if rank == 0 and not requests:
        return []
    return broadcast_pyobj(requests, rank, cpu_group, src=0)  # want CV301 "broadcast_pyobj"
