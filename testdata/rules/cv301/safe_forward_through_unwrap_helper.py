# Rank 0 samples with the module a helper takes out of the DDP wrapper
# (`get_base_model(model)(x)`): the inner module's forward broadcasts no
# buffers, so the other ranks miss nothing.
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def get_base_model(model):
    if hasattr(model, "module"):
        model = model.module
    return model


def unwrap(model):
    return model.module if hasattr(model, "module") else model


def sample(model, x):
    with torch.no_grad():
        a = get_base_model(model)(x)
        b = unwrap(model)(x)
        gen_model = get_base_model(model)
        c = gen_model(x)
    return a, b, c


def main():
    dist.init_process_group("nccl")
    local = int(os.environ["LOCAL_RANK"])
    model = DDP(torch.nn.BatchNorm1d(8).cuda(), device_ids=[local])
    x = torch.randn(4, 8, device="cuda")
    model(x).sum().backward()
    if dist.get_rank() == 0:
        sample(model, x)
    dist.barrier()
