# The resume position is read where the file is found, and a rank that
# does not find it raises: the launcher ends the job, and every rank
# still running read the same file (HuatuoGPT's resume).
import os

import torch
import torch.distributed as dist


def train(model, loader, ckpt, n_epochs):
    if ckpt:
        if os.path.isfile(os.path.join(ckpt, "training_state.pt")):
            start_epoch = torch.load(os.path.join(ckpt, "training_state.pt"))["epoch"]
        else:
            raise ValueError(f"Checkpoint not found at: {ckpt}")
    else:
        start_epoch = 0
    for epoch in range(start_epoch, n_epochs):
        dist.all_reduce(torch.ones(1, device="cuda"))
