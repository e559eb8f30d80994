# A helper that converts while it groups runs kernels on the current
# stream: reading its result on a side stream needs a wait first.
import collections

import torch
import torch.distributed as dist


def group_as_float(tensors):
    by_dtype = collections.defaultdict(list)
    for t in tensors:
        by_dtype[t.dtype].append(t.float())
    return by_dtype


def gossip(params, stream):
    params_by_dtype = group_as_float(params)
    with torch.cuda.stream(stream):
        for dtype in params_by_dtype:
            flat = torch.cat(params_by_dtype[dtype])  # want CV203 "\"params_by_dtype\" is written on the current stream" CV203 "\"dtype\" is written"
            dist.all_reduce(flat)
