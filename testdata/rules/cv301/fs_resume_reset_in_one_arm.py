# The resume epoch comes from a checkpoint a glob found on this host; an
# arm that resets it for one configuration leaves it this host's answer
# on the path that skips the arm (RoboFlamingo's real-data switch), and
# a then arm's answer is not undone by an else arm that never ran.
import glob
import os

import torch
import torch.distributed as dist


def main(args, t):
    resume_from_epoch = 0
    ckpts = glob.glob(os.path.join(args.run_name, "*.pth"))
    if ckpts:
        checkpoint = torch.load(sorted(ckpts)[-1], map_location="cpu")
        resume_from_epoch = checkpoint["epoch"] + 1
    if args.real_data:
        resume_from_epoch = 0
    for epoch in range(resume_from_epoch, args.num_epochs):
        dist.all_reduce(t)  # want CV301 "range\(resume_from_epoch, args.num_epochs\)`, whose bounds depend on a file system check"


def fit(loader_len, ckpt_dir, epochs, t, seeded):
    step = len(os.listdir(ckpt_dir))
    if seeded:
        skipped_epoch = step // loader_len
    else:
        skipped_epoch = 0
    for epoch in range(skipped_epoch, epochs):
        dist.all_reduce(t)  # want CV301 "range\(skipped_epoch, epochs\)`, whose bounds depend on a file system check"
