import torch.distributed as dist


def step(model, batch):
    grad = model(batch)
    dist.all_reduce(grad)
    return grad * 2
