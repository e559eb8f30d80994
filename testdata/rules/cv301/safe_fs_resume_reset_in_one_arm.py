# Every path that reaches the loop rebinds the position to a value every
# rank holds, or leaves; and a helper that returns a tuple hands this
# host's answer only to the element that holds it.
import glob
import os

import torch
import torch.distributed as dist


def main(args, t):
    resume_from_epoch = 0
    ckpts = glob.glob(os.path.join(args.run_name, "*.pth"))
    if ckpts:
        resume_from_epoch = torch.load(sorted(ckpts)[-1])["epoch"] + 1
    if args.real_data:
        resume_from_epoch = 0
    else:
        resume_from_epoch = args.start_epoch
    for epoch in range(resume_from_epoch, args.num_epochs):
        dist.all_reduce(t)


def fresh_only(args, t):
    start = 0
    ckpts = glob.glob(os.path.join(args.run_name, "*.pth"))
    if ckpts:
        start = torch.load(sorted(ckpts)[-1])["epoch"] + 1
    if args.resume:
        raise SystemExit("resume through the launcher")
    else:
        start = 0
    for epoch in range(start, args.num_epochs):
        dist.all_reduce(t)


def load_dataloader_state(path, rank):
    p = os.path.join(path, f"rank{rank}.pt")
    if os.path.exists(p):
        return torch.load(p)["dataloader_state_dict"]
    return None


def load_checkpoint(args):
    state = None
    global_step = 0
    if args.resume_from_tag:
        global_step = int(args.resume_from_tag.split("step")[-1])
        state = load_dataloader_state(args.resume_from, dist.get_rank())
    return state, global_step


def train(args, t):
    state, global_step = load_checkpoint(args)
    while global_step < args.max_steps:
        global_step += 1
        if global_step % args.save_every == 0:
            dist.barrier()
        dist.all_reduce(t)
