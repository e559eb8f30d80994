# fairseq's LayerDropModuleList under FSDP (fairseq#3875, fairscale#796):
# iterating the list skips each layer when a draw from torch's default
# generator falls under the rate. Each layer is its own FSDP unit, so its
# forward all-gathers its parameters, and a rank that skipped a layer
# skipped that all-gather: ranks pair different layers' gathers or hang.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class LayerDropModuleList(nn.ModuleList):
    def __init__(self, p, modules=None):
        super().__init__(modules)
        self.p = p

    def __iter__(self):
        dropout_probs = torch.empty(len(self)).uniform_()
        for i, m in enumerate(super().__iter__()):
            if not self.training or (dropout_probs[i] > self.p):
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
        self.layers = LayerDropModuleList(p=p)
        self.layers.extend([FSDP(Layer(dim)) for _ in range(n)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)  # want CV301 "forward .*for … in self.layers., whose LayerDropModuleList.__iter__ yields only when .*draws a random number"
        return x


class Decoder(Encoder):
    # fairseq's decoder goes over the same list with enumerate().
    def forward(self, x):
        for idx, layer in enumerate(self.layers):
            x = layer(x)  # want CV301 "for … in enumerate\(self.layers\)., whose LayerDropModuleList.__iter__ yields only when"
        return x


def main():
    dist.init_process_group("nccl")
    enc = FSDP(Encoder(64, 4, 0.1))
    dec = FSDP(Decoder(64, 4, 0.1))
    dec(enc(torch.randn(2, 64))).sum().backward()
