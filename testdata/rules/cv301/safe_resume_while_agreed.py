# The resumed step is agreed before the loop (rank 0 reads it and
# broadcasts it), or the loop's bound is a configuration value.
import os

import torch
import torch.distributed as dist


def run(ckpt, max_step):
    step = torch.zeros(1, dtype=torch.long, device="cuda")
    if dist.get_rank() == 0 and os.path.isfile(ckpt):
        step[0] = torch.load(ckpt, map_location="cpu")["step"]
    dist.broadcast(step, src=0)
    current = int(step.item())
    while current <= max_step:
        current += 1
        dist.all_reduce(torch.ones(1, device="cuda"))


def plain(max_step):
    step = 0
    while step <= max_step:
        step += 1
        dist.all_reduce(torch.ones(1, device="cuda"))
