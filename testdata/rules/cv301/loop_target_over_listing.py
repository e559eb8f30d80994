# A loop over this host's listing binds its target to this host's file
# names: a test of one decides the barrier on each host alone.
import os

import torch.distributed as dist


def sync_shards(ckpt_dir, obj):
    for obj in os.listdir(ckpt_dir):
        if obj.endswith(".pt"):
            dist.barrier()  # want CV301 "file system"
