# A main-first context manager that compares the rank with a parameter
# (master_rank=0): the others' barrier before the yield pairs with the
# master's after it, as with a literal 0 (AQLM's master_rank_first).
import contextlib
import torch.distributed as dist


@contextlib.contextmanager
def master_rank_first(master_rank: int = 0):
    rank = dist.get_rank()
    if rank != master_rank:
        dist.barrier()
    yield
    if rank == master_rank:
        dist.barrier()


def prepare(build):
    with master_rank_first():
        data = build()
    dist.all_reduce(data)
