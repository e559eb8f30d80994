# The helper keeps this host's listing in a local before it loops over
# it and returns the first checkpoint that loads: whether it finds one
# depends on the host's files, and the ranks that resume skip the
# broadcast the others issue (ssl-data-curation's k-means++ resume).
from pathlib import Path

import torch
import torch.distributed as dist


def last_valid_checkpoint(save_dir):
    ckpt_list = sorted(Path(save_dir).glob("kmpp_checkpoint_*.pth"))
    for ckpt_path in ckpt_list[::-1]:
        try:
            torch.load(ckpt_path, map_location="cpu")
            return ckpt_path
        except Exception:
            continue
    return None


def kmeans_plusplus_init(save_dir, first_center):
    if last_valid_checkpoint(save_dir):
        return torch.load(last_valid_checkpoint(save_dir), map_location="cpu")["centers"]
    dist.broadcast(first_center, src=0)  # want CV301 "broadcast on .* runs only on the ranks that do not leave early .*file system check"
    return first_center
