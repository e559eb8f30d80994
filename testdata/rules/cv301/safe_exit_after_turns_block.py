# Leave the main-first block before exiting, or put the manager's barrier
# after its yield in a finally: rank 0's barrier runs either way.
import contextlib
import sys
import torch.distributed as dist


@contextlib.contextmanager
def master_first():
    rank = dist.get_rank()
    if rank != 0:
        dist.barrier()
    yield
    if rank == 0:
        dist.barrier()


def main(args, build):
    with master_first():
        data = build()
    if args.save_and_exit:
        sys.exit(0)
    dist.all_reduce(data)


@contextlib.contextmanager
def master_first_finally():
    rank = dist.get_rank()
    if rank != 0:
        dist.barrier()
    try:
        yield
    finally:
        if rank == 0:
            dist.barrier()


def main_finally(args, build):
    with master_first_finally():
        data = build()
        if args.save_and_exit:
            sys.exit(0)  # the finally still runs rank 0's barrier
    dist.all_reduce(data)
