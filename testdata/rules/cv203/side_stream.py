# S14/X1: a stream context around a collective, no waits either way.
import torch
import torch.distributed as dist


def step(model, batch):
    side = torch.cuda.Stream()
    grad = model(batch)
    with torch.cuda.stream(side):
        dist.all_reduce(grad)  # want CV203 "\"grad\" is written on the current stream .* used by all_reduce here on side"
    out = grad * 2  # want CV203 "\"grad\" is written on side"
    return out
