# The same metadata read, but rank 0 reads it and broadcasts the start,
# or the handler that starts from scratch raises: every rank starts alike.
import json
import os

import torch
import torch.distributed as dist


def read_meta(d):
    meta = None
    p = os.path.join(d, "metadata.json")
    if os.path.exists(p):
        with open(p) as f:
            meta = json.load(f)
    return meta


def agreed_start(d):
    box = [read_meta(d) if dist.get_rank() == 0 else None]
    dist.broadcast_object_list(box, src=0)
    return box[0].get("epoch", 0) if box[0] else 0


def main(model, d):
    start = agreed_start(d)
    for epoch in range(start, 100):
        loss = model(torch.randn(2, 4)).sum()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
