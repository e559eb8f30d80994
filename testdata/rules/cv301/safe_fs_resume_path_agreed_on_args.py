# The helper that stores args.resume_path takes rank 0's answer: every
# rank resumes from the same file.
import os

import torch
import torch.distributed as dist


def find_resume_path(args):
    found = [None]
    if dist.get_rank() == 0 and os.path.isdir(args.checkpoint_dir):
        names = sorted(os.listdir(args.checkpoint_dir))
        if names:
            found[0] = os.path.join(args.checkpoint_dir, names[-1])
    dist.broadcast_object_list(found, src=0)
    args.resume_path = found[0]


def main(model, args):
    find_resume_path(args)
    start = 0
    if args.resume_path:
        start = torch.load(args.resume_path)["next_step"]
    t = torch.ones(1, device="cuda")
    for i in range(start, args.num_steps):
        dist.all_reduce(t)
