# An object built with this host's file system answer keeps it in the
# attributes its __init__ binds from that argument: a test of one of
# them differs between hosts.
import os

import torch
import torch.distributed as dist


class Run:
    def __init__(self, resume):
        self.resumed = resume
        self.steps = 10


def main(t):
    dist.init_process_group("nccl")
    resume = os.path.exists("ckpt/latest.pt")
    run = Run(resume)
    if run.resumed:
        dist.all_reduce(t)  # want CV301 "file system check"
