# The flag is broadcast, but only rank 1 adopts it: the other ranks keep
# their own decision, and those that stop leave the others in the next
# epoch's collectives.
import os

import torch.distributed as dist

RANK = int(os.getenv("RANK", -1))


def train(model, loader, opt, epochs):
    stop = False
    for epoch in range(epochs):
        for x in loader:
            model(x).sum().backward()
            opt.step()
        if RANK in {-1, 0}:
            stop = epoch > 3
        lst = [stop if RANK == 0 else None]
        dist.broadcast_object_list(lst, 0)  # want CV301 "broadcast_object_list on .* runs only on the ranks that do not leave early"
        if RANK == 1:
            stop = lst[0]
        if stop:
            break
