# In a sweep, rank 0 runs train() through wandb.agent(function=train),
# which calls it and returns when it is done, while the other ranks call
# train() directly: every rank issues train's collectives.
import os

import torch
import torch.distributed as dist
import wandb


def train():
    dist.barrier()
    t = torch.ones(1, device="cuda")
    dist.all_reduce(t)


if __name__ == "__main__":
    dist.init_process_group("nccl")
    sweep_id = os.environ.get("SWEEP_ID")
    if sweep_id and dist.get_rank() == 0:
        wandb.agent(sweep_id, function=train, count=1)
    else:
        train()
