# A helper that polls a directory and falls back to values the caller
# passed in (ANCE's get_latest_checkpoint and get_latest_ann_data): what
# it returns is still this host's listing, so ranks whose hosts list
# different files take different branches.
import os
import time

import torch.distributed as dist


def get_latest_checkpoint(args):
    if not os.path.exists(args.training_dir):
        return args.init_model_dir, 0
    subdirs = list(next(os.walk(args.training_dir))[1])
    nums = [int(s.split("-")[-1]) for s in subdirs]
    if len(nums) > 0:
        return os.path.join(args.training_dir, "checkpoint-%d" % max(nums)), max(nums)
    return args.init_model_dir, 0


def get_latest_ann_data(path):
    if not os.path.exists(path):
        return -1, None
    nums = list(next(os.walk(path))[2])
    if len(nums) > 0:
        return len(nums), os.path.join(path, "ann_%d" % len(nums))
    return -1, None


def poll(args):
    last = args.last_checkpoint_dir
    while True:
        nxt, _ = get_latest_checkpoint(args)
        if nxt == last:
            time.sleep(60)
        else:
            dist.barrier()  # want CV301 "file system"
            last = nxt


def train(args, steps):
    for step in range(steps):
        ann_no, ann_path = get_latest_ann_data(args.ann_dir)
        if ann_path is not None:
            dist.barrier()  # want CV301 "file system"
