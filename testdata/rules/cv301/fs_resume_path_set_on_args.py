# A helper lists this host's checkpoint directory and stores the newest
# file in args.resume_path (EVL's _find_autoresume_path); the step read
# from it bounds the training loop, so hosts that see different files
# run different numbers of steps.
import os

import torch
import torch.distributed as dist


def find_resume_path(args):
    if os.path.isdir(args.checkpoint_dir):
        names = [x for x in os.listdir(args.checkpoint_dir) if x.startswith("checkpoint-")]
        steps = []
        for x in names:
            try:
                x = int(x[len("checkpoint-"):-len(".pth")])
            except ValueError:
                continue
            steps.append(x)
    else:
        steps = []
    if len(steps) == 0:
        print("no checkpoint")
    else:
        args.resume_path = os.path.join(args.checkpoint_dir, "checkpoint-%d.pth" % max(steps))


def resume(model, args):
    if args.auto_resume and args.resume_path is None:
        find_resume_path(args)
    if args.resume_path is None:
        return 0
    ckpt = torch.load(args.resume_path, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    return ckpt["next_step"]


def main(model, args):
    resume_step = resume(model, args)
    t = torch.ones(1, device="cuda")
    for i in range(resume_step, args.num_steps):
        dist.all_reduce(t)  # want CV301 "file system check of this host"


def inline(model, args):
    find_resume_path(args)
    start = 0
    if args.resume_path:
        start = torch.load(args.resume_path)["next_step"]
    t = torch.ones(1, device="cuda")
    for i in range(start, args.num_steps):
        dist.all_reduce(t)  # want CV301 "file system check of this host"
