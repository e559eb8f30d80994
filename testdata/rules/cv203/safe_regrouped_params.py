# Tensors regrouped by helpers that only file them (stochastic gradient push's
# group_by_dtype, a bucket list): the containers they return hold the
# same tensors, and no kernel ran on the current stream to make them.
import collections

import torch
import torch.distributed as dist


def group_by_dtype(tensors):
    """Map each dtype to its tensors."""
    by_dtype = collections.defaultdict(list)
    for t in tensors:
        by_dtype[t.dtype].append(t)
    return by_dtype


def buckets(tensors):
    out = {}
    for t in tensors:
        out.setdefault((t.dtype, t.device), []).append(t)
    return out


class Gossip:
    def split(self, tensors):
        out = []
        for t in tensors:
            out.append(t)
        return out

    def run(self, params, stream):
        mine = self.split(params)
        with torch.cuda.stream(stream):
            for t in mine:
                dist.all_reduce(t)


def gossip(params, buffers, stream):
    params_by_dtype = group_by_dtype(params)
    buffers_by_key = buckets(buffers)
    with torch.cuda.stream(stream):
        for dtype in params_by_dtype:
            flat = torch.cat(params_by_dtype[dtype])
            dist.all_reduce(flat)
        for key in buffers_by_key:
            dist.broadcast(torch.cat(buffers_by_key[key]), 0)
