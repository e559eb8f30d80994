# The first loop binds obj to what a file system check decided; the
# second loop binds obj afresh to each argument, so its test is the same
# on every host (LiteGen's initialize).
import os

import torch
import torch.distributed as dist


def latest(ckpt_dir):
    found = None
    for f in os.listdir(ckpt_dir):
        found = os.path.join(ckpt_dir, f)
    return found


def setup_module(m):
    load_from = latest("./ckpt")
    if load_from is not None:
        m.load_state_dict(torch.load(load_from))
    return m


def initialize(*args):
    results = []
    for obj in args:
        if isinstance(obj, torch.nn.Module):
            obj = setup_module(obj)
        results.append(obj)
    for obj in args:
        if isinstance(obj, torch.optim.Optimizer):
            dist.barrier()
    return results
