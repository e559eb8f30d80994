# A helper that hands the model back as it is (no unwrapping) leaves the
# DDP wrapper's forward, and its buffer broadcast, on rank 0 alone.
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def prepare(model):
    model.eval()
    return model


def main():
    dist.init_process_group("nccl")
    local = int(os.environ["LOCAL_RANK"])
    model = DDP(torch.nn.BatchNorm1d(8).cuda(), device_ids=[local])
    x = torch.randn(4, 8, device="cuda")
    model(x).sum().backward()
    if dist.get_rank() == 0:
        with torch.no_grad():
            prepare(model)(x)  # want CV301 "model's forward"
    dist.barrier()
