# Rank 0 evaluates the module DDP wraps, unwrapped with the common
# `model.module if isinstance(model, DDP) else model` (or hasattr(model,
# "module")): the else arm is never the DDP wrapper, so no forward of it
# runs on rank 0 alone.
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel


def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x).sum()


def run(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)).to(rank)
    if world_size > 1:
        model = DistributedDataParallel(model, device_ids=[rank])
    dist.barrier()
    if rank == 0:
        # the unwrapped module is evaluated when model is DDP: no collective
        evaluate(model.module if isinstance(model, DistributedDataParallel) else model,
                 torch.randn(8, 4, device=rank))
    dist.barrier()
    if rank == 0:
        evaluate(model.module if hasattr(model, "module") else model, torch.randn(8, 4, device=rank))
    dist.barrier()


if __name__ == "__main__":
    mp.spawn(run, args=(2,), nprocs=2)
