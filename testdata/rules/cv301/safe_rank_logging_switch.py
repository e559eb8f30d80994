# A rank test handed to a library only as a logging or progress switch
# does not make what the call returns rank-dependent: the resumed epoch
# comes from the checkpoint, and tqdm yields every batch whoever prints.
import os

import torch
import torch.distributed as dist
from timm.models import resume_checkpoint
from tqdm import tqdm


def main(model, optimizer, loader, num_epochs, path):
    local_rank = int(os.environ["LOCAL_RANK"])
    start_epoch = 0
    resume_epoch = resume_checkpoint(model, path, optimizer=optimizer, log_info=local_rank == 0)
    if resume_epoch is not None:
        start_epoch = resume_epoch
    for epoch in range(start_epoch, num_epochs):
        for x in tqdm(loader, disable=local_rank != 0):
            loss = model(x).sum()
            loss.backward()
        dist.all_reduce(torch.ones(1, device="cuda"))


def train_steps(model, loader, total_steps):
    # The bar prints to stderr on the leader and nowhere elsewhere; what
    # it counts is the same on every rank (s3prl's runner).
    import sys

    bar_file = sys.stderr if dist.get_rank() == 0 else open(os.devnull, "w")
    pbar = tqdm(total=total_steps, file=bar_file, position=dist.get_rank())
    for x in loader:
        if pbar.n + 1 > pbar.total:
            break
        model(x).sum().backward()
        dist.all_reduce(torch.ones(1, device="cuda"))
        pbar.update(1)
