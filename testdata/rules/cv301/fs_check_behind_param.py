# A file check behind a parameter some call sets: where a caller asks
# for the cache, each host answers for itself.
import os

import torch
import torch.distributed as dist


def inference(x, out_dir, use_cached=False):
    path = os.path.join(out_dir, "predictions.pth")
    if use_cached and os.path.exists(path):
        preds = torch.load(path)
    else:
        preds = x * 2
        dist.barrier()  # want CV301 "file system check"
    return preds


def main():
    dist.init_process_group("nccl")
    x = torch.randn(2, 4, device="cuda")
    inference(x, "out")
    inference(x, "out", use_cached=True)
