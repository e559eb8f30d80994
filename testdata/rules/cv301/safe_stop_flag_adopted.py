# Rank 0 decides to stop and broadcasts its flag; the other ranks adopt
# it, rank 0 keeps the value it sent, so every rank breaks together
# (YOLOv5's and YOLOv9's early stopping).
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
        if RANK != -1:
            lst = [stop if RANK == 0 else None]
            dist.broadcast_object_list(lst, 0)
            if RANK != 0:
                stop = lst[0]
        if stop:
            break
