# Draws every rank makes alike: a generator the program seeds for this
# decision, and a decision drawn on one rank and broadcast.
import random

import torch
import torch.distributed as dist


def step(loss, p, step_index):
    rng = random.Random(step_index)
    if rng.random() < p:
        dist.barrier()
    g = torch.Generator()
    g.manual_seed(step_index)
    if torch.rand(1, generator=g) < p:
        dist.barrier()
    agreed = torch.tensor(float(random.random() < p))
    dist.broadcast(agreed, 0)
    if agreed.item():
        dist.all_reduce(loss)


def augment(x, p):
    # No collective depends on the draw.
    if random.random() < p:
        x = x.flip(0)
    dist.all_reduce(x)
    return x


def broadcast_object(obj, src_rank=0):
    box = [obj]
    dist.broadcast_object_list(box, src=src_rank)
    return box[0]


def skip_layer(loss, p):
    # Drawn on every rank, then rank 0's draw handed to all through the
    # program's own broadcast helper.
    drop = broadcast_object(random.random() < p)
    if drop:
        dist.all_reduce(loss)
