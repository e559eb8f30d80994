# pytorch/examples' FSDP T5 training: validation() is passed the rank (for
# its progress bar) and returns a loss it all-reduced, the same on every
# rank; saving on "the loss improved" runs on every rank.
import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def validation(model, rank, world_size, val_loader):
    local_rank = int(os.environ["LOCAL_RANK"])
    fsdp_loss = torch.zeros(3).to(local_rank)
    if rank == 0:
        print("validating")
    for batch in val_loader:
        output = model(batch)
        fsdp_loss[0] += output["loss"].item()
        fsdp_loss[1] += len(batch)
    dist.all_reduce(fsdp_loss, op=dist.ReduceOp.SUM)
    val_loss = fsdp_loss[0] / fsdp_loss[1]
    if rank == 0:
        print(f"Validation Loss: {val_loss:.4f}")
    return val_loss


def fsdp_main(rank, world_size, model, val_loader):
    model = FSDP(model)
    best = float("inf")
    for epoch in range(3):
        cur = validation(model, rank, world_size, val_loader)
        if cur < best:
            state = model.state_dict()
            best = cur
            if rank == 0:
                torch.save(state, "best.pt")


if __name__ == "__main__":
    import torch.multiprocessing as mp

    mp.spawn(fsdp_main, args=(2, None, None), nprocs=2)
