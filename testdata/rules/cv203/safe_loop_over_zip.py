# Iterating the caller's tensors (zip, enumerate, items) binds names to
# them: no device work runs at the loop head, so using them on a side
# stream waits for nothing produced here.
import torch
import torch.distributed as dist


def reduce_pairs(grads, shards, side):
    for g, s in zip(grads, shards):
        with torch.cuda.stream(side):
            dist.reduce_scatter_tensor(s, g)


def reduce_indexed(grads, side):
    for i, g in enumerate(grads):
        with torch.cuda.stream(side):
            dist.all_reduce(g)


def reduce_named(buffers, side):
    for name, b in buffers.items():
        with torch.cuda.stream(side):
            dist.broadcast(b, 0)
