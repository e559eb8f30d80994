# The same model run on every rank, with only the logging gated: every
# rank issues each block's all-gather in the same order.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import fully_shard


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ff = nn.Linear(dim, dim)

    def forward(self, x):
        return self.ff(x)


class ViT(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(dim) for _ in range(depth)])

    def forward(self, x):
        return self.blocks(x)


def main():
    dist.init_process_group("nccl")
    model = ViT(64, 4)
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    out = model.blocks(torch.randn(2, 64))
    if dist.get_rank() == 0:
        print(out.sum().item())
