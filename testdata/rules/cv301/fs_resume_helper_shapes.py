# Resume helpers that decide from this host's files in other ways: a
# checkpoint left None unless the file is found here (MixMIM's
# load_model), the latest number among this host's listing (EVA-02's
# auto_load_model), and a resume path from a listing the caller tests
# before calling the loader (HiViT's auto-resume).
import glob
import os

import torch
import torch.distributed as dist


def load_model(args, model):
    if args.resume:
        checkpoint = None
        if os.path.isfile(args.resume):
            checkpoint = torch.load(args.resume, map_location="cpu")
        if checkpoint is None:
            return
        model.load_state_dict(checkpoint["model"])
        args.start_epoch = checkpoint["epoch"] + 1


def auto_load_model(args, model):
    latest = -1
    for ckpt in glob.glob(os.path.join(args.output_dir, "checkpoint-*.pth")):
        t = ckpt.split("-")[-1].split(".")[0]
        if t.isdigit():
            latest = max(int(t), latest)
    if latest >= 0:
        args.resume = os.path.join(args.output_dir, "checkpoint-%d.pth" % latest)
    if args.resume:
        checkpoint = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(checkpoint["model"])
        args.start_epoch = checkpoint["epoch"] + 1


def auto_resume_helper(output_dir):
    checkpoints = [c for c in os.listdir(output_dir) if c.endswith("pth")]
    if len(checkpoints) > 0:
        return max([os.path.join(output_dir, d) for d in checkpoints], key=os.path.getmtime)
    return None


def load_checkpoint(config):
    checkpoint = torch.load(config.MODEL.RESUME, map_location="cpu")
    config.TRAIN.START_EPOCH = checkpoint["epoch"] + 1


def train_sentinel(args, model):
    load_model(args, model)
    for epoch in range(args.start_epoch, args.epochs):
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "once per element of `range\(args.start_epoch, args.epochs\)`, whose bounds depend on a file system check"


def train_latest(args, model):
    auto_load_model(args, model)
    for epoch in range(args.start_epoch, args.epochs):
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "once per element of `range\(args.start_epoch, args.epochs\)`"


def train_config(config):
    resume_file = auto_resume_helper(config.OUTPUT)
    if resume_file:
        config.MODEL.RESUME = resume_file
    if config.MODEL.RESUME:
        load_checkpoint(config)
    for epoch in range(config.TRAIN.START_EPOCH, config.TRAIN.EPOCHS):
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "once per element of `range\(config.TRAIN.START_EPOCH, config.TRAIN.EPOCHS\)`"
