# A module whose forward all-reduces (BEiT-2's EMA quantizer), made with
# Model().cuda() or .to(device), run on rank 0 only.
import torch
import torch.distributed as dist
import torch.nn as nn


class Quantizer(nn.Module):
    def forward(self, z):
        bins = z.sum(0)
        dist.all_reduce(bins)
        return bins


def probe(x, device):
    quant = Quantizer().to(device).eval()
    if dist.get_rank() == 0:
        quant(x)  # want CV301 "all_reduce"


def probe_everywhere(x):
    quant = Quantizer().cuda()
    out = quant(x)
    if dist.get_rank() == 0:
        print(out)
