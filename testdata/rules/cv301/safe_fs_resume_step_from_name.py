# Steps parsed from a checkpoint's name that every rank takes alike: the
# name is parsed outside the file check, the check's other arm fails, or
# the parsed number is not from the checked path.
import os

import torch
import torch.distributed as dist


def parsed_everywhere(epochs, t, resume_path):
    cur_epoch = int(os.path.basename(resume_path).split(".")[0]) // 2500
    if os.path.exists(resume_path):
        torch.load(resume_path, map_location="cpu")
    for epoch in range(cur_epoch, epochs):
        dist.all_reduce(t)


def missing_fails(epochs, t, resume_path):
    if os.path.exists(resume_path):
        cur_epoch = int(os.path.basename(resume_path).split(".")[0])
    else:
        raise FileNotFoundError(resume_path)
    for epoch in range(cur_epoch, epochs):
        dist.all_reduce(t)


def other_number(args, t):
    workers = 2
    if os.path.exists(args.ckpt):
        workers = int(args.num_workers)
    for epoch in range(args.epochs):
        dist.all_reduce(t)
    return workers
