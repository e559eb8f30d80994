# The hazardous neighbour of safe_dead_listing_after_guard.py: with no
# guard, an empty path reaches the directory listing of this host, and
# the step it returns bounds the ranks' loops.
import os

import torch
import torch.distributed as dist


def resume_from_checkpoint(path):
    if path is not None and path != "":
        name = os.path.basename(path)
    else:
        dirs = [f.name for f in os.scandir(os.getcwd()) if f.is_dir()]
        name = dirs[-1]
    return int(name.replace("step_", ""))


def main(resume, max_steps):
    completed = resume_from_checkpoint(resume)
    for step in range(completed, max_steps):
        t = torch.ones(1, device="cuda")
        dist.all_reduce(t)  # want CV301 "whose bounds depend on a file system check of this host"
