# LayerDrop that keeps the collectives: only the root is an FSDP unit (it
# gathers every block's parameters once, before its forward), or every
# block runs and the draw only decides whether its output is used
# (fairseq2's revised LayerDrop). (Which modules are FSDP units is known
# per class: the two models use blocks of their own.)
import random

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import fully_shard


class Block(nn.Module):
    def forward(self, x):
        return x * 2


class MaskedBlock(nn.Module):
    def forward(self, x):
        return x * 3


class RootSharded(nn.Module):
    def __init__(self, n, layerdrop):
        super().__init__()
        self.layers = nn.ModuleList([Block() for _ in range(n)])
        self.layerdrop = layerdrop

    def forward(self, x):
        for layer in self.layers:
            if random.random() < self.layerdrop:
                continue
            x = layer(x)
        return x


class Masked(nn.Module):
    def __init__(self, n, layerdrop):
        super().__init__()
        self.layers = nn.ModuleList([MaskedBlock() for _ in range(n)])
        self.layerdrop = layerdrop

    def forward(self, x):
        for layer in self.layers:
            out = layer(x)
            if random.random() >= self.layerdrop:
                x = out
        return x


def main():
    dist.init_process_group("nccl")
    root = RootSharded(4, 0.1)
    fully_shard(root)
    root(torch.randn(2))
    masked = Masked(4, 0.1)
    for layer in masked.layers:
        fully_shard(layer)
    fully_shard(masked)
    masked(torch.randn(2))
