# The same helper's answer is decided on rank 0 and broadcast before any
# rank branches on it.
from pathlib import Path

import torch
import torch.distributed as dist


def last_valid_checkpoint(save_dir):
    ckpt_list = sorted(Path(save_dir).glob("kmpp_checkpoint_*.pth"))
    for ckpt_path in ckpt_list[::-1]:
        return ckpt_path
    return None


def kmeans_plusplus_init(save_dir, first_center):
    found = [str(last_valid_checkpoint(save_dir)) if dist.get_rank() == 0 else None]
    dist.broadcast_object_list(found, src=0)
    if found[0] != "None":
        return torch.load(found[0], map_location="cpu")["centers"]
    dist.broadcast(first_center, src=0)
    return first_center
