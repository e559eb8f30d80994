# A position read where this host found a checkpoint, kept by the object
# a program class builds from it, bounds a loop read back from that
# attribute: hosts that resumed differently run different numbers of
# passes.
import os

import torch
import torch.distributed as dist


class Learner:
    def __init__(self, start_step):
        self.start_step = start_step


def train(ckpt):
    start = 0
    if os.path.exists(ckpt):
        start = torch.load(ckpt)["step"]
    learner = Learner(start)
    for step in range(learner.start_step, 100):
        dist.barrier()  # want CV301 "file system"
