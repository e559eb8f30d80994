# The resume folder is picked from this host's listing and the step read
# from a file in it: the loop's index counts from that step, so the passes
# whose test issues the collective differ between hosts that resumed from
# different checkpoints (Lumina-T2X's resumed step loop).
import os

import torch
import torch.distributed as dist


def main(args, loader):
    existing = os.listdir(args.ckpt)
    if len(existing) > 0:
        args.resume = os.path.join(args.ckpt, sorted(existing)[-1])
    if args.resume:
        with open(os.path.join(args.resume, "resume_step.txt")) as f:
            resume_step = int(f.read().strip())
    else:
        resume_step = 0
    for step, x in enumerate(loader, start=resume_step):
        if (step + 1) % args.log_every == 0:
            t = torch.ones(1, device="cuda")
            dist.all_reduce(t)  # want CV301 "runs only when `\(step \+ 1\) % args.log_every == 0` holds, which depends on a file system check"
