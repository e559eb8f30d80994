# A loop over this host's directory listing makes one pass per file the
# host sees; collectives in its passes go out as many times as there are
# files here, which ranks on other hosts may not match (AngelSlim's scale
# loader broadcasts once per key of every file it lists).
import glob
import os

import torch
import torch.distributed as dist


def load_scales(targets, ckpt_dir):
    files = sorted(glob.glob(os.path.join(ckpt_dir, "*.safetensors")))
    for f in files:
        for key in targets:
            dist.broadcast(targets[key], src=0)  # want CV301 "once per element of `files`, whose bounds depend on a file system check"


def load_shards(shard_dir, t):
    for name in os.listdir(shard_dir):
        dist.all_reduce(t)  # want CV301 "once per element of `os.listdir\(shard_dir\)`"
