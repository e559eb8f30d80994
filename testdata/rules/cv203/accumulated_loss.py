# A host-initialised accumulator that sums tensors becomes a tensor: the
# sum is made on the current stream and all-reduced on a side stream with
# no wait either way.
import torch
import torch.distributed as dist


def step(model, batches):
    side = torch.cuda.Stream()
    total = 0.0
    for b in batches:
        total += model(b)
    with torch.cuda.stream(side):
        dist.all_reduce(total)  # want CV203 "\"total\" is written on the current stream .* used by all_reduce here on side"
    return total  # want CV203 "\"total\" is written on side"
