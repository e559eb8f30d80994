# The master never issues the barrier the others wait in before the yield
# (safe_main_first_named_rank.py releases them after it).
import contextlib

import torch.distributed as dist


@contextlib.contextmanager
def master_rank_first_broken(master_rank: int = 0):
    rank = dist.get_rank()
    if rank != master_rank:
        dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) runs only when `rank != master_rank` holds"
    yield


@contextlib.contextmanager
def other_names(master_rank: int = 0, leader: int = 1):
    rank = dist.get_rank()
    if rank != master_rank:
        dist.barrier()  # want CV301 "runs only when `rank != master_rank` holds"
    yield
    if rank == leader:
        dist.barrier()  # want CV301 "runs only when `rank == leader` holds"
