# A library call handed the rank itself (not a logging switch) may
# return something of this rank's: a shard count read per rank.
import os

import torch
import torch.distributed as dist
from shardlib import count_shards


def main(loader, path):
    local_rank = int(os.environ["LOCAL_RANK"])
    n = count_shards(path, rank=local_rank, verbose=local_rank == 0)
    for i in range(n):
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "all_reduce on .* once per element of `range\(n\)`"
