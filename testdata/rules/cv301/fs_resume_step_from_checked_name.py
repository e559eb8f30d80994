# The step to resume from, parsed from the name of the checkpoint that a
# host's own file check found (EfficientMoE's DSMoE trainers: the file is
# `0005000.pt`): a host that does not see the file starts from step 0 and
# runs more epochs, each of which all-reduces.
import os

import torch
import torch.distributed as dist


def main(epochs, t, resume_path=None):
    cur_epoch = 0
    if resume_path:
        if os.path.exists(resume_path):
            basename = os.path.basename(resume_path)
            cur_steps = int(basename.split(".")[0])
            cur_epoch = int(cur_steps // 2500)
            torch.load(resume_path, map_location="cpu")
    for epoch in range(cur_epoch, epochs):
        dist.all_reduce(t)  # want CV301 "whose bounds depend on a file system check of this host"


def direct(args, t):
    start = 0
    if os.path.isfile(args.ckpt):
        start = int(os.path.basename(args.ckpt).split("-")[1]) + 1
    for epoch in range(start, args.epochs):
        dist.all_reduce(t)  # want CV301 "whose bounds depend on a file system check of this host"
