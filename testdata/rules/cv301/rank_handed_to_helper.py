# The rank handed to a helper: a test on the parameter splits the ranks
# as the caller's own test would.
import torch.distributed as dist


def save(model, rank):
    if rank == 0:
        dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) runs only when `rank == 0` holds"


def sync_if(is_main, x):
    if is_main:
        dist.all_reduce(x)  # want CV301 "all_reduce .* only when `is_main` holds"


def evaluate(model, rank):
    # passed on once more
    save(model, rank)


def main(model, x):
    rank = dist.get_rank()
    evaluate(model, rank)
    sync_if(rank == 0, x)
