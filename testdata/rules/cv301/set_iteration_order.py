# R13 (NVIDIA/apex#18): collectives issued once per element of a set run
# in the set's hash order, which differs between processes (string hash
# seeds, object addresses): ranks pair different tensors.
import torch.distributed as dist


def sync_buffers(buffers, names):
    for name in set(names):
        dist.broadcast(buffers[name], 0)  # want CV301 "once per element of `set\(names\)`"


def sync_params(model):
    params = set(model.parameters())
    for p in params:
        dist.all_reduce(p.grad)  # want CV301 "once per element of `params`"


def reduce_bucket(bucket):
    dist.all_reduce(bucket)


def sync_groups(grouped):
    kinds = {t.dtype for t in grouped}
    for kind in kinds | {"extra"}:
        reduce_bucket(grouped[kind])  # want CV301 "all_reduce.*once per element"
