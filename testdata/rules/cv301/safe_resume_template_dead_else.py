# Hugging Face's no_trainer template: inside `if args.resume:` the test
# `args.resume is not None or args.resume != ""` always holds, so the
# arm that lists the working directory never runs and the resumed step
# is the one the command line names, on every rank.
import os

import torch
import torch.distributed as dist


def main(args):
    dist.init_process_group("nccl")
    completed = 0
    if args.resume:
        if args.resume is not None or args.resume != "":
            path = os.path.basename(args.resume)
        else:
            dirs = [f.name for f in os.scandir(os.getcwd()) if f.is_dir()]
            dirs.sort(key=os.path.getctime)
            path = dirs[-1]
        completed = int(path.replace("step_", ""))
    while True:
        dist.all_reduce(torch.ones(1, device="cuda"))
        completed += 1
        if completed >= args.max_steps:
            break
