# The epoch to resume from, read from the checkpoint inside the arm of a
# host's own file check (MAE/MAR's main scripts, CUT3R's trainer): a host
# that does not see the file starts from 0 and runs more epochs, each of
# which all-reduces.
import os

import torch
import torch.distributed as dist


def train_one_epoch(t):
    dist.all_reduce(t)


def main(args, t):
    if args.resume and os.path.exists(os.path.join(args.resume, "checkpoint-last.pth")):
        checkpoint = torch.load(os.path.join(args.resume, "checkpoint-last.pth"), map_location="cpu")
        args.start_epoch = checkpoint["epoch"] + 1
    for epoch in range(args.start_epoch, args.epochs):
        train_one_epoch(t)  # want CV301 "whose bounds depend on a file system check of this host"


def local(args, t):
    ckpt = os.path.join(args.out, "last.pth")
    start = 0
    if os.path.isfile(ckpt):
        start = int(torch.load(ckpt).get("epoch", 0)) + 1
    for epoch in range(start, args.epochs):
        dist.all_reduce(t)  # want CV301 "whose bounds depend on a file system check of this host"


def on_args(args, t):
    # The host's answer kept on an attribute (Spann3R's and CUT3R's
    # auto-resume).
    ckpt = os.path.join(args.output_dir, "checkpoint-last.pth")
    args.resume = ckpt if os.path.isfile(ckpt) else None
    args.start_epoch = 0
    if args.resume is not None:
        args.start_epoch = torch.load(args.resume, map_location="cpu")["epoch"] + 1
    for epoch in range(args.start_epoch, args.epochs):
        dist.all_reduce(t)  # want CV301 "whose bounds depend on a file system check of this host"
