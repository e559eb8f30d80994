# timm-style blocks in an nn.Sequential, each handed to FSDP2's
# fully_shard: calling the Sequential runs every block's forward, an
# all-gather per block, so rank 0 calling it alone waits for the others.
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
    if dist.get_rank() == 0:
        model.blocks(torch.randn(2, 64))  # want CV301 "forward .* runs only when `dist.get_rank\(\) == 0`"
