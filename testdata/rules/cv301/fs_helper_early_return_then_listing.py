# The resume helper returns the newest file's path where it exists, and
# otherwise picks from this host's listing (MoBY's auto_resume_helper):
# either way the answer is this host's, and the start epoch it gives
# bounds the training loop.
import os

import torch
import torch.distributed as dist


def auto_resume_helper(output_dir):
    if os.path.exists(os.path.join(output_dir, "checkpoint.pth")):
        return os.path.join(output_dir, "checkpoint.pth")
    checkpoints = [c for c in os.listdir(output_dir) if c.endswith("pth")]
    if len(checkpoints) > 0:
        resume_file = os.path.join(output_dir, checkpoints[0])
    else:
        resume_file = None
    return resume_file


def main(output_dir):
    start = 0
    resume_file = auto_resume_helper(output_dir)
    if resume_file:
        start = torch.load(resume_file)["epoch"] + 1
    t = torch.ones(1, device="cuda")
    for epoch in range(start, 100):
        dist.all_reduce(t)  # want CV301 "file system check of this host"
