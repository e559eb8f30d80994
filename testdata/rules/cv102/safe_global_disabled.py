import torch
import torch.distributed as dist

dist.init_process_group("nccl")
torch.autograd.set_multithreading_enabled(False)


def sync_grad(grad):
    dist.all_reduce(grad)
    return grad


def train(model, batch, param):
    param.register_hook(sync_grad)
    model(batch).sum().backward()
