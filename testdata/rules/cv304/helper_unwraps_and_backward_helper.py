# A loss helper that rebinds its model parameter to the module inside
# DistributedDataParallel (`if distributed: model = model.module`) and
# runs a method of it computes the loss past the wrapper; so does one that
# calls model.module directly, with backward run through a helper handed
# the loss and a scaler (open_clip's backward(total_loss, scaler), as in
# CLIPSelf). Neither arms DDP's reducer: the gradients are not averaged.
import torch
import torch.distributed as dist
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)

    def encode(self, x):
        return self.proj(x)


class Method:
    def __call__(self, batch, model, distributed):
        if distributed:
            model = model.module
        feats = model.encode(batch)
        return {"loss": 1.0 - feats.mean()}


def compute_losses(batch, model):
    feats = model.module.encode(batch)
    return {"loss": 1.0 - feats.mean()}


def backward(total_loss, scaler):
    if scaler is not None:
        scaler.scale(total_loss).backward()
    else:
        total_loss.backward()


def train_rebound(model, method, loader, optimizer):
    for batch in loader:
        optimizer.zero_grad()
        total_loss = sum(method(batch, model, True).values())
        total_loss.backward()  # want CV304 "method"
        optimizer.step()


def train_backward_helper(model, loader, optimizer, scaler):
    for batch in loader:
        optimizer.zero_grad()
        total_loss = sum(compute_losses(batch, model).values())
        backward(total_loss, scaler)  # want CV304 "compute_losses"
        optimizer.step()


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    model = torch.nn.parallel.DistributedDataParallel(Net().cuda(), device_ids=[rank])
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = [torch.randn(8, 16, device="cuda") for _ in range(10)]
    train_rebound(model, Method(), loader, optimizer)
    train_backward_helper(model, loader, optimizer, torch.cuda.amp.GradScaler())
