# A helper that ends the process with status 0 on this host's own answer
# (a missing checkpoint directory, an error it catches) leaves the job
# running: the launcher takes the exit for success, and the other ranks
# wait in the caller's later collectives.
import os

import torch
import torch.distributed as dist


def load_checkpoint(ckpt_dir):
    if not os.path.isdir(ckpt_dir):
        print("The checkpoint dir does not exist.")
        exit()
    return torch.load(os.path.join(ckpt_dir, "last.pt"))


def probe_devices():
    try:
        t = torch.zeros(4 * dist.get_world_size(), device=torch.device("cuda", dist.get_rank()))
        dist.all_to_all_single(t, t)
    except RuntimeError as err:
        print("all_to_all_single unavailable: %s" % err)
        exit()


def train(model, ckpt_dir, steps):
    dist.init_process_group("nccl")
    load_checkpoint(ckpt_dir)
    for _ in range(steps):
        loss = model(torch.randn(4, 8, device="cuda")).sum()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)  # want CV301 "isdir.ckpt_dir"


def main():
    dist.init_process_group("nccl")
    probe_devices()
    x = torch.ones(4, device="cuda")
    dist.all_reduce(x)  # want CV301 "except RuntimeError"
