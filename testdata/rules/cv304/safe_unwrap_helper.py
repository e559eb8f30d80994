# A helper that hands back the module inside a wrapper, or the model
# itself (atlas's get_unwrapped_model_if_wrapped), wraps nothing: the
# forward and backward go through the DDP wrapper.
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


def get_unwrapped_model_if_wrapped(model):
    if hasattr(model, "module"):
        return model.module
    return model


def train(model, optimizer, batches):
    unwrapped_model = get_unwrapped_model_if_wrapped(model)
    for x in batches:
        model(x).sum().backward()
        optimizer.step()
    return unwrapped_model


def main(rank, batches):
    model = DDP(torch.nn.Linear(4, 4).cuda(), device_ids=[rank])
    train(model, torch.optim.SGD(model.parameters(), lr=0.1), batches)
