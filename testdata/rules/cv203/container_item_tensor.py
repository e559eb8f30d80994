# The same config dict holding a tensor computed on the current stream:
# the side stream reads it before that work is ordered before it.
import torch
import torch.distributed as dist


def worker(cfg, buf, stream):
    cfg["scale"] = buf * 2
    with torch.cuda.stream(stream):
        dist.all_reduce(cfg["scale"])  # want CV203 "\"cfg\" is written on the current stream"


def stash(buf, stream):
    bufs = {}
    bufs["scale"] = buf * 2
    with torch.cuda.stream(stream):
        dist.all_reduce(bufs["scale"])  # want CV203 "\"bufs\" is written on the current stream"
