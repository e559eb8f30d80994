# A dict filled in a loop over the configuration, or over a listing that
# rank 0 made and broadcast, is the same on every rank.
import os

import torch
import torch.distributed as dist


def from_config(cfg):
    d = {}
    for name in cfg.stages:
        d[name] = len(name)
    step = max(d.values())
    while step < 1000:
        x = torch.ones(1, device="cuda")
        dist.all_reduce(x)
        step += 1


def broadcast_listing(exp_dir):
    names = [os.listdir(exp_dir) if dist.get_rank() == 0 else None]
    dist.broadcast_object_list(names, src=0)
    d = {}
    for name in names[0]:
        d[name] = True
    for name in sorted(d):
        dist.barrier()
