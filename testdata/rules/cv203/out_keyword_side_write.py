# A tensor written through an operator's out= keyword on a side stream
# and then reduced on the current stream with no wait between.
import torch
import torch.distributed as dist


def reduce_sum(grads, buf):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.sum(torch.stack(grads), dim=0, out=buf)
    dist.all_reduce(buf)  # want CV203 "\"buf\" is written on side .* used by all_reduce here on the current stream"


def split_pair(x, lo, hi):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.chunk(x, 2, out=(lo, hi))
    dist.broadcast(hi, src=0)  # want CV203 "\"hi\" is written on side"
