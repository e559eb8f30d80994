# A helper's locals bound by annotated assignments (`found: bool =
# os.path.exists(p)`) carry the host's answer as plain ones do.
import os

import torch
import torch.distributed as dist


def has_checkpoint(path: str) -> bool:
    found: bool = os.path.exists(path)
    return found


def main(path):
    t = torch.ones(1)
    if has_checkpoint(path):
        dist.all_reduce(t)  # want CV301 "depends on a file system check"
