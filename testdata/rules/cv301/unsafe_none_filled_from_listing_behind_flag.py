# Behind a setting every rank shares, the path is filled from this
# host's listing, None where it found nothing: whether the path is None
# after the if is this host's answer.
import os

import torch.distributed as dist


def load_ema(path):
    dist.barrier()


def main(cfg_resume_from, ckpt_dir, auto_resume):
    dist.init_process_group("nccl")
    load_from = cfg_resume_from
    if load_from is None and auto_resume:
        found = [f for f in os.listdir(ckpt_dir) if f.endswith(".pth")]
        load_from = found[-1] if found else None
    if load_from is not None:
        load_ema(load_from)  # want CV301 "file system check"
