# The same resume, with rank 0's epoch broadcast before it is handed to
# the training helper: every rank runs the same passes.
import glob

import torch
import torch.distributed as dist
import torch.nn as nn


def train_agreed(model, first, last):
    for epoch in range(first, last):
        loss = model(torch.randn(2, 4).cuda()).sum()
        loss.backward()


def main_agreed():
    dist.init_process_group("nccl")
    model = nn.parallel.DistributedDataParallel(nn.Linear(4, 4).cuda())
    first = 0
    ckpts = glob.glob("ckpt/*.pth")
    if len(ckpts) > 0:
        first = torch.load(ckpts[-1])["epoch"] + 1
    decision = [first]
    dist.broadcast_object_list(decision, src=0)
    first = decision[0]
    train_agreed(model, first, 10)
