# LayerDrop under FSDP: each block is its own FSDP unit (fully_shard per
# block, as torchtitan does), so its forward all-gathers its parameters.
# A rank whose draw skips a block skips that all-gather, and the ranks
# pair different blocks' gathers or wait forever (fairscale#796,
# fairseq#3875).
import random

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


class Model(nn.Module):
    def __init__(self, dim, n, layerdrop):
        super().__init__()
        self.layers = nn.ModuleList([Block(dim) for _ in range(n)])
        self.layerdrop = layerdrop

    def forward(self, x):
        for layer in self.layers:
            if self.training and random.random() < self.layerdrop:
                continue
            x = layer(x)  # want CV301 "model's forward .* draws a random number"
        return x


def main():
    dist.init_process_group("nccl")
    model = Model(64, 4, 0.1)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model(torch.randn(2, 64)).sum().backward()
    if dist.get_rank() == 0:
        model.layers[0](torch.randn(2, 64))  # want CV301 "model's forward .* runs only when"
