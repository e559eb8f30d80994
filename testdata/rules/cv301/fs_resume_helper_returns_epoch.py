# A resume helper that checks for the checkpoint on its own host and
# returns the stored epoch, or constants when it finds none (Point-BERT's
# and Point-MAE's resume_model): ranks on hosts that see different files
# start their epoch loops at different epochs.
import os

import torch
import torch.distributed as dist


def resume_model(args):
    ckpt_path = os.path.join(args.experiment_path, "ckpt-last.pth")
    if not os.path.exists(ckpt_path):
        return 0, 0
    state_dict = torch.load(ckpt_path, map_location="cpu")
    start_epoch = state_dict["epoch"] + 1
    return start_epoch, state_dict["best_metrics"]


def resume_step(path):
    if os.path.isfile(path):
        return int(torch.load(path)["step"])
    return 0


def run(args, loss):
    start_epoch = 0
    if args.resume:
        start_epoch, best = resume_model(args)
    for epoch in range(start_epoch, args.max_epoch + 1):
        dist.all_reduce(loss)  # want CV301 "whose bounds depend on a file system check"


def run_steps(args, loss):
    step = resume_step(args.ckpt)
    while step < args.max_steps:
        step += 1
        dist.all_reduce(loss)  # want CV301 "file system"


def setup_model(output_dir):
    # One return, the epoch set in the arm of the file check (VideoChat2's
    # setup_model).
    start_epoch = 0
    latest = os.path.join(output_dir, "ckpt_latest.pth")
    if os.path.isfile(latest):
        ckpt = torch.load(latest, map_location="cpu")
        start_epoch = ckpt["epoch"] + 1
    return None, start_epoch


def run_setup(args, loss):
    model, start_epoch = setup_model(args.output_dir)
    for epoch in range(start_epoch, 10):
        dist.barrier()  # want CV301 "file system"
