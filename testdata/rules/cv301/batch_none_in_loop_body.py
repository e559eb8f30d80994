# Inside the loop the name is this rank's current batch again: its None
# test is a test of the data this rank loaded.
import torch
import torch.distributed as dist


def train(model, loader, t):
    batch = None
    for batch in loader:
        if batch is None:
            continue
        loss = model(batch).sum()
        dist.all_reduce(loss)  # want CV301 "all_reduce .*a test of the batch this rank loaded"
    return t
