# The same list with draws every rank agrees on: a generator seeded with
# the step on every rank (fairseq2's LayerDrop after #484), and a list
# whose __iter__ yields every layer. Iterating either runs the same
# layers' forwards on every rank.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class SeededLayerDrop(nn.ModuleList):
    def __init__(self, p, modules=None):
        super().__init__(modules)
        self.p = p
        self.step = 0

    def __iter__(self):
        gen = torch.Generator().manual_seed(self.step)
        dropout_probs = torch.empty(len(self)).uniform_(generator=gen)
        for i, m in enumerate(super().__iter__()):
            if not self.training or (dropout_probs[i] > self.p):
                yield m


class Logged(nn.ModuleList):
    def __iter__(self):
        for m in super().__iter__():
            yield m


class Layer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ff = nn.Linear(dim, dim)

    def forward(self, x):
        return self.ff(x)


class Encoder(nn.Module):
    def __init__(self, dim, n, p):
        super().__init__()
        self.layers = SeededLayerDrop(p=p)
        self.layers.extend([FSDP(Layer(dim)) for _ in range(n)])
        self.more = Logged([FSDP(Layer(dim)) for _ in range(n)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        for layer in self.more:
            x = layer(x)
        return x


def main():
    dist.init_process_group("nccl")
    enc = FSDP(Encoder(64, 4, 0.1))
    enc(torch.randn(2, 64)).sum().backward()
