# Closures that read the rank their enclosing function bound: the
# function dumping one split returns early on the ranks with no samples
# (talkative-probes' activation dump), and a closure that barriers on
# rank 0 only.
import os

import torch.distributed as dist


def setup():
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    return rank, world_size


def main(splits):
    rank, world_size = setup()

    def dump(n):
        per_rank = (n + world_size - 1) // world_size
        count = min(per_rank, n - rank * per_rank)
        if count <= 0:
            return
        dist.barrier()  # want CV301 "do not leave early"

    for n in splits:
        dump(n)


def report():
    rank = dist.get_rank()

    def flush():
        if rank == 0:
            dist.barrier()  # want CV301 "runs only when `rank == 0` holds"

    flush()
