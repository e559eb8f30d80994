# Helpers passed the rank whose result comes from it: through a test
# that decides the return, or through the value itself.
import torch.distributed as dist


def is_writer(rank, every):
    if rank % every == 0:
        return True
    return False


def shard_start(rank, n):
    start = rank * n
    return start


def save(model, n):
    rank = dist.get_rank()
    if is_writer(rank, 8):
        dist.barrier()  # want CV301 "is_writer"
    if shard_start(rank, n) == 0:
        dist.barrier()  # want CV301 "shard_start"
