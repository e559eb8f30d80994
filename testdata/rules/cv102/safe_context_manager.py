import torch
import torch.distributed as dist


def sync_grad(grad):
    dist.all_reduce(grad)
    return grad


def train(model, batch, param):
    param.register_hook(sync_grad)
    loss = model(batch).sum()
    with torch.autograd.set_multithreading_enabled(False):
        loss.backward()
