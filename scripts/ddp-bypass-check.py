"""Shows at run time what CV304 reports: a backward on a loss the module
inside DistributedDataParallel computed past the wrapper leaves every
rank with its own gradients.

Two processes on gloo (CPU): a Linear under DDP, each rank its own batch.
Through the wrapper the gradients match across ranks after backward;
through `model.module(x)` they do not.

    python3 scripts/ddp-bypass-check.py
"""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP


def run(rank, world, mode, port):
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    model = DDP(torch.nn.Linear(4, 1))
    torch.manual_seed(100 + rank)  # each rank its own batch
    x = torch.randn(8, 4)
    out = model.module(x) if mode == "bypass" else model(x)
    out.sum().backward()
    g = model.module.weight.grad.clone()
    gs = [torch.zeros_like(g) for _ in range(world)]
    dist.all_gather(gs, g)
    if rank == 0:
        print(mode, "grads equal across ranks:", all(torch.allclose(gs[0], h) for h in gs))
    dist.destroy_process_group()


if __name__ == "__main__":
    for i, mode in enumerate(("wrapper", "bypass")):
        mp.spawn(run, args=(2, mode, 29533 + i), nprocs=2)
