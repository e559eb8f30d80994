# The raising arm communicates before it raises: its collective waits for
# ranks that took the other arm, so it never gets to raise.
import torch.distributed as dist


def check(x):
    if dist.get_rank() == 0:
        dist.barrier()  # want CV301 "barrier on the default group"
        raise ValueError("rank 0 gave up")
    else:
        dist.all_reduce(x)
