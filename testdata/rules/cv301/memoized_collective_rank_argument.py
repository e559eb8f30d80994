# A collective inside a function functools.lru_cache memoizes, called
# with a length that differs between ranks: a rank that has seen its
# length returns the cached sizes, another issues the all_gather
# (cache-dit's Ulysses "anything" sizes, reduced).
import functools

import torch
import torch.distributed as dist


@functools.lru_cache(maxsize=128)
def gather_size(size, group):
    world = dist.get_world_size(group=group)
    out = [torch.empty((1,), dtype=torch.int64, device="cuda") for _ in range(world)]
    dist.all_gather(out, torch.tensor([size], dtype=torch.int64, device="cuda"), group=group)
    return [t.item() for t in out]


def local_len(total, rank, world):
    return total // world + (1 if rank < total % world else 0)


def main(totals):
    rank, world = dist.get_rank(), dist.get_world_size()
    for total in totals:
        s = local_len(total, rank, world)
        print(gather_size(s, dist.group.WORLD))  # want CV301 "runs inside gather_size, which functools.lru_cache memoizes"
