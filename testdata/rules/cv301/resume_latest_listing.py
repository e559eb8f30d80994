# The same template asked for "latest": each host lists its own working
# directory, and the step it resumes from decides when it stops.
import os

import torch
import torch.distributed as dist


def main(args):
    dist.init_process_group("nccl")
    completed = 0
    if args.resume:
        if args.resume != "latest":
            path = os.path.basename(args.resume)
        else:
            dirs = [f.name for f in os.scandir(os.getcwd()) if f.is_dir()]
            dirs.sort(key=os.path.getctime)
            path = dirs[-1]
        completed = int(path.replace("step_", ""))
    while True:
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "file system check"
        completed += 1
        if completed >= args.max_steps:
            break
