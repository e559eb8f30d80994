# The helper reads a position from this host's checkpoint only when
# cfg.ckpt_path is set; the one call is made where the caller found it
# "None", so the helper returns 0 on every rank there (dit_policy_vla's
# fine-tuning, which resumes weights only).
import os

import torch
import torch.distributed as dist


def resume(cfg, net):
    start = 0
    if cfg.pretrained_path != "None" and os.path.exists(cfg.pretrained_path):
        net.load_state_dict(torch.load(cfg.pretrained_path)["parameter"])
    if cfg.ckpt_path != "None" and os.path.exists(cfg.ckpt_path):
        start = torch.load(cfg.ckpt_path)["total_iter_num"]
    return start


def train(cfg, net, loader):
    dist.init_process_group("gloo")
    total_iter = 0
    if cfg.pretrained_path != "None" and cfg.ckpt_path == "None":
        total_iter = resume(cfg, net)
    for batch in loader:
        if total_iter > cfg.max_iters:
            break
        dist.all_reduce(batch)
        total_iter += 1
