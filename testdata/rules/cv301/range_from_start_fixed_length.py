# range(start, start + 3) runs three passes wherever each rank starts; a
# range that ends at a per-rank value does not.
import os

import torch
import torch.distributed as dist


def load_epoch(path):
    if not os.path.isfile(path):
        return 1
    return torch.load(path)["epoch"] + 1


def train(model):
    start = load_epoch(f"ckpt_rank{dist.get_rank()}.pt")
    for epoch in range(start, start + 3):
        model(torch.randn(4, 16, device="cuda")).sum().backward()


def train_until(model):
    rank = dist.get_rank()
    for epoch in range(0, rank + 3):
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "per element"


if __name__ == "__main__":
    dist.init_process_group("nccl")
    net = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(16, 16).cuda())
    train(net)
    train_until(net)
