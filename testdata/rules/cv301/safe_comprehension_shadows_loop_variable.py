# A comprehension binds its own `k`: the earlier loop variable `k` (a
# directory listing of this host) does not reach what it builds.
import os
import torch.distributed as dist


def main(path, handles, shared):
    for k in os.listdir(path):
        print(k)
    experts = {k: v for k, v in handles.items() if k not in shared}
    if len(experts) > 0:  # the same on every rank
        dist.gather_object("m", None)
