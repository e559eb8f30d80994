# A progress bar whose total is the rank's own: the loop that stops at
# it runs a different number of steps on each rank, whatever the bar
# prints to.
import os
import sys

import torch
import torch.distributed as dist
from tqdm import tqdm


def train_steps(model, loader, steps_per_rank):
    rank = dist.get_rank()
    pbar = tqdm(total=steps_per_rank[rank], file=sys.stderr if rank == 0 else open(os.devnull, "w"))
    for x in loader:
        if pbar.n + 1 > pbar.total:
            break
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "pbar.n \+ 1 > pbar.total"
        pbar.update(1)
