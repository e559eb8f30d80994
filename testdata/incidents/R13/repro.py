import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def flat_dist_call(tensors, call, extra_args=None):
    buckets = {}
    for tp in set(t.type() for t in tensors):
        buckets[tp] = [t for t in tensors if t.type() == tp]
    for tp in buckets:
        bucket = buckets[tp]
        coalesced = _flatten_dense_tensors(bucket)
        if extra_args is not None:
            call(coalesced, *extra_args)
        else:
            call(coalesced)
        if call is dist.all_reduce:
            coalesced /= dist.get_world_size()
        for buf, synced in zip(bucket, _unflatten_dense_tensors(coalesced, bucket)):
            buf.copy_(synced)


def sync_params(model):
    flat_dist_call([p.data for p in model.parameters()], dist.broadcast, (0,))
