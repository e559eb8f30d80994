# wandb.agent on rank 0 alone runs train's collectives on rank 0 only.
import torch
import torch.distributed as dist
import wandb


def train():
    t = torch.ones(1, device="cuda")
    dist.all_reduce(t)


if __name__ == "__main__":
    dist.init_process_group("nccl")
    if dist.get_rank() == 0:
        wandb.agent("sweep", function=train, count=1)  # want CV301 "all_reduce"
