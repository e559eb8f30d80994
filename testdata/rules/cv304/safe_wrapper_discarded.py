# Unwrapping that leaves training to the wrapper: the module taken out
# only after the training loop (to save it), kept under another name
# while the wrapper trains, unwrapped only in an evaluation arm, or
# wrapped again before training.
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def train_then_save(loader, local_rank):
    model = DDP(nn.Linear(8, 8).to(local_rank), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
    model = model.module
    torch.save(model.state_dict(), "model.pt")


def evaluate_unwrapped(loader, local_rank, evaluate_only):
    model = DDP(nn.Linear(8, 8).to(local_rank), device_ids=[local_rank])
    if evaluate_only:
        model = model.module
        with torch.no_grad():
            return [model(x) for x in loader]
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()


def rewrapped(loader, local_rank):
    model = DDP(nn.Linear(8, 8).to(local_rank), device_ids=[local_rank])
    model = model.module
    model.half()
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
