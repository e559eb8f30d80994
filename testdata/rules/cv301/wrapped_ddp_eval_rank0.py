# Rank 0 evaluates the DDP wrapper itself: its forward broadcasts the
# BatchNorm buffers, on rank 0 alone (safe_unwrapped_ddp_eval.py unwraps).
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
        # the DDP wrapper itself: its forward broadcasts the BatchNorm buffers
        evaluate(model, torch.randn(8, 4, device=rank))  # want CV301 "the model's forward"
    dist.barrier()


if __name__ == "__main__":
    mp.spawn(run, args=(2,), nprocs=2)
