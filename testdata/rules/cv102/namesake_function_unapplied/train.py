import torch
import torch.distributed as dist

from sp.layer import ScatterLayer


def main():
    dist.init_process_group("nccl")
    model = ScatterLayer()
    model(torch.randn(4, 8, device="cuda")).sum().backward()
