# The position a resume starts from is stored on an object by a helper,
# and the loop the caller runs over it makes as many passes as this host's
# disk says: the helper checks the file itself (TFace's meta loader), the
# caller found the checkpoint and named it on the object the helper reads
# (scale-mae's load_model), or the caller calls the helper only where its
# own check found the file.
import os

import torch
import torch.distributed as dist


class MetaLoader:
    @staticmethod
    def load_meta(task, meta):
        if not os.path.isfile(meta):
            print("no meta checkpoint", meta)
        else:
            task.start_epoch = torch.load(meta)["EPOCH"]


class Task:
    def __init__(self, meta):
        self.start_epoch, self.epoch_num, self.meta = 0, 10, meta

    def train(self, t):
        MetaLoader.load_meta(self, self.meta)
        for epoch in range(self.start_epoch, self.epoch_num):
            dist.all_reduce(t)  # want CV301 "range\(self.start_epoch, self.epoch_num\)`, whose bounds depend on a file system check"


def load_model(args, model):
    if args.resume:
        ckpt = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        args.start_epoch = ckpt["epoch"] + 1


def main(args, model, t):
    if not args.resume:
        latest = os.path.join(args.output_dir, "checkpoint-latest.pth")
        if os.path.exists(latest):
            args.resume = latest
    load_model(args, model)
    for epoch in range(args.start_epoch, args.epochs):
        dist.all_reduce(t)  # want CV301 "range\(args.start_epoch, args.epochs\)`, whose bounds depend on a file system check"


def restore(state, path):
    ckpt = torch.load(path, map_location="cpu")
    state.step = int(ckpt.get("step", 0))


def fit(state, path, total, t):
    if os.path.isfile(path):
        restore(state, path)
    while state.step < total:  # the while loop's test reads the position too
        dist.all_reduce(t)  # want CV301 "once per pass of `while state.step < total`"
        state.step += 1


def restart_from_checkpoint(ckp_path, run_variables=None):
    # DINO's and iBOT's resume helper: nothing happens where this host
    # has no checkpoint.
    if not os.path.isfile(ckp_path):
        return
    checkpoint = torch.load(ckp_path, map_location="cpu")
    if run_variables is not None:
        for name in run_variables:
            if name in checkpoint:
                run_variables[name] = checkpoint[name]


def train_dino(output_dir, epochs, t):
    to_restore = {"epoch": 0}
    restart_from_checkpoint(os.path.join(output_dir, "checkpoint.pth"), run_variables=to_restore)
    start_epoch = to_restore["epoch"]
    for epoch in range(start_epoch, epochs):
        dist.all_reduce(t)  # want CV301 "range\(start_epoch, epochs\)`, whose bounds depend on a file system check"


def load_model_result(args, model):
    args.start_epoch = 0
    if args.resume is not None:
        ckpt = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        args.start_epoch = ckpt["epoch"] + 1
    return ckpt.get("best", None) if args.resume else None


def train_result_bound(args, model):
    # The helper's result is kept (dust3r's `best_so_far = load_model(…)`);
    # what it stored on args is this host's answer all the same.
    last = os.path.join(args.output_dir, "checkpoint-last.pth")
    args.resume = last if os.path.isfile(last) else None
    best_so_far = load_model_result(args, model)
    for epoch in range(args.start_epoch, args.epochs):
        dist.barrier()  # want CV301 "whose bounds depend on a file system check"
    return best_so_far
