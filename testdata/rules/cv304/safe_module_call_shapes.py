# Calls of the wrapped module that leave DDP's gradient sync alone: the
# wrapper's own forward feeds the backward (the module's method only adds
# a term), micro-steps between synchronised ones (like no_sync), gradients
# all-reduced by hand, evaluation without a backward, and the module's
# utilities (state_dict, parameters).
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def train_with_aux(net, loader, local_rank):
    model = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        out = model(x)
        aux = model.module.regulariser(out)
        loss = nn.functional.mse_loss(out, y) + aux
        loss.backward()
        opt.step()


def train_accumulating(net, loader, local_rank, accum):
    model = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        if (i + 1) % accum != 0:
            loss = nn.functional.mse_loss(model.module(x), y)
        else:
            loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        if (i + 1) % accum == 0:
            opt.step()


def train_manual_sync(net, loader, local_rank):
    model = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = nn.functional.mse_loss(model.module(x), y)
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        opt.step()


def evaluate(net, loader, local_rank):
    model = DDP(net.cuda(), device_ids=[local_rank])
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            total += nn.functional.mse_loss(model.module(x), y).item()
    torch.save(model.module.state_dict(), "model.pt")
    return total


def forward_pass(model, batch):
    # The wrapper's own forward makes the loss; the module's method only
    # post-processes it.
    out = model(batch["x"])
    return model.module.loss_fn(out, batch["y"])


def finetune(net, loader, local_rank):
    model = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for batch in loader:
        loss = forward_pass(model, batch)
        loss.backward()
        opt.step()


def count_params(module):
    return sum(p.numel() for p in module.parameters())


def train_logging(net, loader, local_rank):
    # A helper that only inspects the unwrapped module runs no forward.
    model = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y) * 0 + count_params(model.module) * 0.0
        loss.backward()
        opt.step()
