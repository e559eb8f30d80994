# Shapes of "main process first" that do not pair up.
import torch.distributed as dist


def collective_between(x):
    rank = dist.get_rank()
    if rank != 0:
        dist.barrier()  # want CV301 "barrier"
    dist.all_reduce(x)  # the others issue barrier, all_reduce; rank 0 all_reduce, barrier
    if rank == 0:
        dist.barrier()  # want CV301 "barrier"


def same_condition():
    rank = dist.get_rank()
    if rank == 0:
        dist.barrier()  # want CV301 "barrier"
    if rank == 0:
        dist.barrier()  # want CV301 "barrier"


def different_ops(x):
    rank = dist.get_rank()
    if rank != 0:
        dist.barrier()  # want CV301 "barrier"
    if rank == 0:
        dist.all_reduce(x)  # want CV301 "all_reduce"


def different_groups(g):
    rank = dist.get_rank()
    if rank != 0:
        dist.barrier()  # want CV301 "barrier"
    if rank == 0:
        dist.barrier(group=g)  # want CV301 "barrier"


def different_guards(distributed, cached):
    is_main = dist.get_rank() == 0
    if distributed and not is_main:
        dist.barrier()  # want CV301 "barrier"
    if cached and is_main:
        dist.barrier()  # want CV301 "barrier"
