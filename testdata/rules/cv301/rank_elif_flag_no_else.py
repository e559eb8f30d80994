# Rank 0 always reduces; the others only when a flag of the
# configuration is set, in an elif with no else: with the flag off they
# issue nothing and rank 0 waits alone (GFM's resume-or-pretrained
# validation, with a host's check in place of the rank test).
import os

import torch.distributed as dist


def main(cfg, t):
    if dist.get_rank() == 0:
        dist.all_reduce(t)  # want CV301 "runs only when `dist.get_rank\(\) == 0` holds"
    elif cfg.flag:
        dist.all_reduce(t)


def resume(cfg, t, output_dir):
    if os.listdir(output_dir):
        dist.all_reduce(t)  # want CV301 "runs only when `os.listdir\(output_dir\)` holds"
    elif cfg.pretrained:
        dist.all_reduce(t)
