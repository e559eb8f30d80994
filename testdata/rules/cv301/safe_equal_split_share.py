# Each process takes its share of equal-size chunks
# (x.split(len // n)[rank]): the remainder sits in a chunk past the last
# rank's, so every share has the same length, and so has every loop.
import torch
import torch.distributed as dist


def train(train_idx, n_procs, local_rank, batch):
    train_idx = train_idx.split(train_idx.size(0) // n_procs)[local_rank]
    steps = (len(train_idx) + batch - 1) // batch
    for i in range(steps):
        if i % 10 == 0:
            dist.barrier()
