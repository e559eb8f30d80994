# The resume helper hands the options object back, but it set the epoch
# to start from on it, from the checkpoint this host found: the epoch
# loop that reads it back, here and in the helper handed the object,
# runs a different number of passes on hosts that resumed differently.
import os

import torch
import torch.distributed as dist


def resume(model, path, opt):
    ckpt = torch.load(path, map_location="cpu")
    opt.start_epoch = ckpt["epoch"] + 1
    return model, ckpt["info"], opt


def train_all(opt, model):
    for epoch in range(opt.start_epoch, opt.epochs):
        dist.all_reduce(torch.ones(1))  # want CV301 "file system"


def main(opt, model):
    dist.init_process_group("gloo")
    p = os.path.join(opt.save_dir, "latest.pth")
    if os.path.isfile(p):
        model, info, opt = resume(model, p, opt)
    if opt.distributed:
        dist.barrier()
    train_all(opt, model)  # want CV301 "file system"
    for epoch in range(opt.start_epoch, opt.epochs):
        dist.barrier()  # want CV301 "file system"
