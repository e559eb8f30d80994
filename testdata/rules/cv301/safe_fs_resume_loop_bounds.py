# The resumed step is agreed on before it bounds the loop (rank 0's answer
# broadcast to every rank), or read from a file without a check.
import os

import torch
import torch.distributed as dist


def load_resume(path):
    if os.path.exists(path):
        return torch.load(path, map_location="cpu")
    return None


def train(grad, steps):
    ckp = load_resume("../checkpoints/resume.pth")
    start_step = ckp["step"] if ckp else 0
    box = [start_step]
    dist.broadcast_object_list(box, src=0)
    start_step = box[0]
    for step in range(start_step, steps):
        dist.all_reduce(grad)


def train_required(grad, steps, path):
    start_step = torch.load(path, map_location="cpu")["step"]
    for step in range(start_step, steps):
        dist.all_reduce(grad)
