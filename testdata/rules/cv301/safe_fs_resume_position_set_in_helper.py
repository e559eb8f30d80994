# A helper that stores a resume position where every rank agrees: the
# checkpoint path comes from the command line, not from a look at this
# host's disk; the position a helper found is broadcast before it bounds
# the loop; and what the helper stores under its own file check is no
# position (a learning rate).
import os

import torch
import torch.distributed as dist


def load_model(args, model):
    if args.resume:
        ckpt = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        args.start_epoch = ckpt["epoch"] + 1


def main_from_flag(args, model, t):
    load_model(args, model)
    for epoch in range(args.start_epoch, args.epochs):
        dist.all_reduce(t)


def load_meta(task, meta):
    if os.path.isfile(meta):
        task.start_epoch = torch.load(meta)["EPOCH"]


def main_agreed(task, meta, t):
    load_meta(task, meta)
    box = [task.start_epoch]
    dist.broadcast_object_list(box, src=0)
    task.start_epoch = box[0]
    for epoch in range(task.start_epoch, task.epochs):
        dist.all_reduce(t)


def load_lr(opt_state, path):
    if os.path.isfile(path):
        opt_state.lr = float(torch.load(path)["lr"]) * 0.5


def main_lr(opt_state, path, epochs, t):
    load_lr(opt_state, path)
    for epoch in range(epochs):
        dist.all_reduce(t)


def restart_always(ckp_path, run_variables):
    # No look at the disk: a missing checkpoint fails every rank alike.
    checkpoint = torch.load(ckp_path, map_location="cpu")
    for name in run_variables:
        run_variables[name] = checkpoint[name]


def train_given(ckpt, epochs, t):
    to_restore = {"epoch": 0}
    restart_always(ckpt, to_restore)
    for epoch in range(to_restore["epoch"], epochs):
        dist.all_reduce(t)
