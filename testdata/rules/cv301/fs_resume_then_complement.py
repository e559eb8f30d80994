# Swin-style start-up: validate after resuming, or after loading the
# pretrained weights when not resuming. Where pretrained weights are
# given every rank validates once either way; where they are not, only
# the hosts that found a checkpoint validate, which the first if reports.
import os

import torch
import torch.distributed as dist


def auto_resume_helper(output_dir):
    checkpoints = [c for c in os.listdir(output_dir) if c.endswith("pth")]
    if len(checkpoints) > 0:
        return max([os.path.join(output_dir, d) for d in checkpoints], key=os.path.getmtime)
    return None


def validate(model, x):
    acc = model(x).sum()
    dist.all_reduce(acc)
    return acc


def main(cfg, model, x):
    if cfg.auto_resume:
        resume_file = auto_resume_helper(cfg.output)
        if resume_file:
            cfg.resume = resume_file
    if cfg.resume:
        model.load_state_dict(torch.load(cfg.resume))
        validate(model, x)  # want CV301 "file system check"
    if cfg.pretrained and (not cfg.resume):
        model.load_state_dict(torch.load(cfg.pretrained))
        validate(model, x)


def other_sequence(cfg, model, x):
    if cfg.auto_resume:
        resume_file = auto_resume_helper(cfg.output)
        if resume_file:
            cfg.resume = resume_file
    if cfg.resume:
        validate(model, x)  # want CV301 "file system check"
    if cfg.pretrained and (not cfg.resume):
        validate(model, x)  # want CV301 "file system check"
        dist.barrier()
