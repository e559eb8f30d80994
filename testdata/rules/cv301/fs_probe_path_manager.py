# SlowFast and TimeSformer resume from what fvcore's (iopath's)
# PathManager finds in the checkpoint directory: each host lists its own
# view, so a host that sees a checkpoint starts later and runs fewer
# epochs of collectives than one that does not.
import os

import torch
import torch.distributed as dist
from fvcore.common.file_io import PathManager
from iopath.common.file_io import g_pathmgr


def has_checkpoint(out_dir):
    d = os.path.join(out_dir, "checkpoints")
    files = PathManager.ls(d) if PathManager.exists(d) else []
    return any("checkpoint" in f for f in files)


def train(out_dir, max_epoch=10):
    start_epoch = 0
    if has_checkpoint(out_dir):
        start_epoch = 5
    t = torch.ones(1, device="cuda")
    for epoch in range(start_epoch, max_epoch):
        dist.all_reduce(t)  # want CV301 "whose bounds depend on a file system check of this host"


def evaluate(out_dir):
    if g_pathmgr.isfile(os.path.join(out_dir, "best.pyth")):
        dist.barrier()  # want CV301 "a file system check that each rank makes on its own host"
    # Opening a file reads it; it asks nothing about what the host has.
    with PathManager.open(os.path.join(out_dir, "cfg.yaml")) as f:
        if f:
            dist.barrier()
