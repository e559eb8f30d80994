# The same helper called where the caller found cfg.ckpt_path set: its
# position comes from this host's checkpoint, and the loop's early exit
# follows it.
import os

import torch
import torch.distributed as dist


def resume(cfg, net):
    start = 0
    if cfg.ckpt_path != "None" and os.path.exists(cfg.ckpt_path):
        start = torch.load(cfg.ckpt_path)["total_iter_num"]
    return start


def train(cfg, net, loader):
    dist.init_process_group("gloo")
    total_iter = 0
    if cfg.ckpt_path != "None":
        total_iter = resume(cfg, net)
    for batch in loader:
        if total_iter > cfg.max_iters:
            break
        dist.all_reduce(batch)  # want CV301 "file system"
        total_iter += 1
