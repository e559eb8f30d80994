# Filled with what the listing found, which is None where this host
# found nothing: the test after it is each host's own.
import os

import torch.distributed as dist


def latest(ckpt_dir):
    best = None
    for f in os.listdir(ckpt_dir):
        if f.endswith(".pth"):
            best = os.path.join(ckpt_dir, f)
    return best


def main(cfg_resume_from, ckpt_dir):
    dist.init_process_group("nccl")
    load_from = cfg_resume_from
    if load_from is None:
        load_from = latest(ckpt_dir)
    if load_from is not None:
        dist.barrier()  # want CV301 "file system"
