# The elif's break runs only where the if before it failed on
# dist.is_initialized() and not on its other condition, which the elif
# repeats: in a one-process run. With a process group every rank takes
# the first arm and stops on rank 0's broadcast decision.
import torch
import torch.distributed as dist


def train(epochs, patience, device):
    bad = 0
    for epoch in range(epochs):
        if not dist.is_initialized() or dist.get_rank() == 0:
            err = float(epoch)
            if err < 0.5:
                bad = 0
            else:
                bad += 1
        if patience > 0 and dist.is_initialized():
            stop = torch.tensor([int(bad >= patience)], device=device)
            dist.broadcast(stop, src=0)
            if stop.item():
                break
        elif patience > 0 and bad >= patience:
            break
        if dist.is_initialized():
            dist.barrier()
