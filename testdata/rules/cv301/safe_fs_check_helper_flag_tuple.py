# A helper whose tuples hold the same flag on both paths, or that is
# asked about a path every rank is given alike, answers nothing per host.
import os

import torch
import torch.distributed as dist


def find(output_dir):
    if os.path.exists(output_dir):
        return output_dir, True
    return output_dir, True


def split(name):
    if name.endswith(".pt"):
        return name, False
    return None, True


def main(output_dir, name):
    path, ok = find(output_dir)
    if not ok:
        exit(0)
    base, plain = split(name)
    if not plain:
        return
    dist.all_reduce(torch.ones(1, device="cuda"))
