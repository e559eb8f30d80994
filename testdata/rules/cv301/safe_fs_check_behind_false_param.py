# A file check behind a parameter that every call leaves at its false
# default (also through a **kwargs the caller hands on) or passes false:
# the test is false on every rank and asks no host anything (SSD's
# inference cache).
import os

import torch
import torch.distributed as dist


def inference(x, out_dir, use_cached=False, **kwargs):
    path = os.path.join(out_dir, "predictions.pth")
    if use_cached and os.path.exists(path):
        preds = torch.load(path)
    else:
        preds = x * 2
        dist.barrier()
    return preds


def do_evaluation(x, out_dir, **kwargs):
    return inference(x, out_dir, **kwargs)


def main():
    dist.init_process_group("nccl")
    x = torch.randn(2, 4, device="cuda")
    for it in range(10):
        do_evaluation(x, "out", iteration=it)
    inference(x, "out", use_cached=False)
