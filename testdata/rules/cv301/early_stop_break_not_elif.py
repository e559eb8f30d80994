# Rank 0 counts the bad epochs; a break on its own count, written as its
# own if (or as an elif after a test that does not ask whether the job
# is distributed), runs on rank 0 while the others go on to the barrier.
import torch
import torch.distributed as dist


def train(epochs, patience, device):
    bad = 0
    for epoch in range(epochs):
        if dist.get_rank() == 0:
            if epoch % 2:
                bad = 0
            else:
                bad += 1
        if patience > 0 and dist.is_initialized():
            stop = torch.tensor([int(bad >= patience)], device=device)
            dist.broadcast(stop, src=0)
        if patience > 0 and bad >= patience:
            break
        dist.barrier()  # want CV301 "leave early"


def train_elif(epochs, patience, device):
    bad = 0
    for epoch in range(epochs):
        if dist.get_rank() == 0:
            if epoch % 2:
                bad = 0
            else:
                bad += 1
        if patience > 100:
            stop = torch.tensor([int(bad >= patience)], device=device)
            dist.broadcast(stop, src=0)
        elif patience > 0 and bad >= patience:
            break
        dist.barrier()  # want CV301 "leave early"
