# sys.exit() inside a main-first block: SystemExit skips the manager's
# barrier after its yield on rank 0, and the others wait in theirs before
# it (AQLM's master_rank_first around a save-and-exit).
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
            sys.exit(0)  # want CV301 "the process exits inside `with master_first\(\):`"
    dist.all_reduce(data)
