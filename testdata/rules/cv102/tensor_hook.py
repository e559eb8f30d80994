# A1 (ROCm/rccl#1600): a gradient hook runs on the autograd device thread.
import torch
import torch.distributed as dist

dist.init_process_group("nccl")


def sync_grad(grad):
    dist.all_reduce(grad)  # want CV102 "all_reduce .*register_hook, which the autograd engine calls on its own device thread"
    return grad


def train(model, batch, param):
    param.register_hook(sync_grad)
    loss = model(batch).sum()
    loss.backward()
