# Each rank reloads its own shard of a sharded checkpoint (the path names
# the rank); the counters stored in it are the same in every shard, since
# every rank saved its shard in the same call (OneLLM's FSDP resume).
import os

import torch
import torch.distributed as dist


def load_model(resume, model):
    start_epoch, start_iter = 0, 0
    path = os.path.join(resume, f"checkpoint.{dist.get_rank():05d}-of-{dist.get_world_size():05d}.pth")
    checkpoint = torch.load(path, map_location="cpu")
    model.load_state_dict(checkpoint["model"])
    start_iter = int(checkpoint["iter"]) + 1
    if "epoch" in checkpoint:
        start_epoch = int(checkpoint["epoch"])
    return start_epoch, start_iter


def main(resume, epochs, model):
    start_epoch, start_iter = load_model(resume, model)
    for epoch in range(start_epoch, epochs):
        loss = model(torch.randn(4, 8).cuda()).sum()
        loss.backward()
        dist.barrier()
