import torch.distributed as dist


def hook(grad):
    dist.all_reduce(grad)  # want CV102 "register_hook"
    return grad


def install(p):
    p.register_hook(hook)
