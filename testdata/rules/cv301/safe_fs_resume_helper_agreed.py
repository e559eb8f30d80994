# The resume helper's epoch is broadcast from rank 0 before it bounds the
# loop, and a helper returning what its caller gave it reads no file.
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


def first_epoch(args):
    if os.path.exists(args.log_dir):
        print("logging to", args.log_dir)
    return args.start_epoch


def run(args, loss):
    start_epoch, best = resume_model(args)
    t = torch.tensor([start_epoch], device="cuda")
    dist.broadcast(t, src=0)
    start_epoch = int(t.item())
    for epoch in range(start_epoch, args.max_epoch + 1):
        dist.all_reduce(loss)
    for epoch in range(first_epoch(args), args.max_epoch + 1):
        dist.all_reduce(loss)


def setup_model(output_dir, epoch):
    # The check only logs; the epoch returned is the caller's.
    start_epoch = epoch
    if os.path.isfile(os.path.join(output_dir, "ckpt_latest.pth")):
        print("a checkpoint is there")
    return None, start_epoch


def run_setup(args, loss):
    model, start_epoch = setup_model(args.output_dir, args.start_epoch)
    for epoch in range(start_epoch, 10):
        dist.barrier()


class Loader:
    # A constructor that checks a file and returns nothing.
    def __init__(self, path):
        if not os.path.isfile(path):
            raise FileNotFoundError(path)
        self.path = path


def run_loader(args, loss):
    loader = Loader(args.path)
    for epoch in range(10):
        dist.all_reduce(loss)
    return loader
