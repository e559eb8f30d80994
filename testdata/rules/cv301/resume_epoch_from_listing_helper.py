# A helper picks the newest checkpoint from this host's listing into
# args.resume, loads it under `if args.resume:` and returns the epoch
# after it: the caller's epoch loop runs as many passes as this host's
# files say (OneLLM's load_model with --auto_resume).
import glob
import os

import torch
import torch.distributed as dist


def load_model(args, model):
    start_epoch = 0
    if args.auto_resume:
        ckpt_dirs = glob.glob(os.path.join(args.output_dir, "epoch_*"))
        ckpt_dirs.sort()
        if len(ckpt_dirs) > 0:
            args.resume = ckpt_dirs[-1]
    if args.resume:
        checkpoint = torch.load(os.path.join(args.resume, "checkpoint.pth"), map_location="cpu")
        model.load_state_dict(checkpoint["model"])
        start_epoch = int(checkpoint["epoch"]) + 1
    return start_epoch


def main(args, model):
    dist.init_process_group("nccl")
    start_epoch = load_model(args, model)
    for epoch in range(start_epoch, args.epochs):
        loss = model(torch.randn(4, 8).cuda()).sum()
        loss.backward()
        dist.all_reduce(loss)  # want CV301 "whose bounds depend on a file system check of this host"
