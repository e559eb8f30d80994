"""Skipping a batch whose loss is NaN, under DistributedDataParallel.

loss.backward() through a DDP model is a collective: the reducer
all-reduces the gradients while backward runs. Each rank computes its loss
from its own batch, so a NaN on one rank is not a NaN on the others: that
rank skips its backward, the others wait in the all-reduce for it, and the
job hangs (the step after a rare bad batch, hours into a run).

The fix: agree first. All-reduce a found-NaN flag and let every rank
skip together, as `train_agreed` does (collvet stays quiet on it).
"""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(net, loader, optim):
    model = DDP(net.cuda())
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        if torch.isnan(loss):
            print("NaN loss, skipping the batch")
            continue
        loss.backward()
        optim.step()
        optim.zero_grad()


def train_agreed(net, loader, optim):
    model = DDP(net.cuda())
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        bad = torch.isnan(loss).float()
        dist.all_reduce(bad)
        if bad.item() > 0:
            continue
        loss.backward()
        optim.step()
        optim.zero_grad()
