# The same exits, on a loss every rank agrees on: the helper all-reduces
# what it returns, and the loop averages the epoch's mean across ranks
# before testing it.
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train_loop_reduced(model, loader, opt):
    total = torch.zeros(1, device="cuda")
    for x, y in loader:
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        total += loss.detach()
    dist.all_reduce(total)
    return total / dist.get_world_size()


def worker_helper(rank, loader):
    model = DDP(torch.nn.Linear(8, 2).cuda(rank), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        train_loss = train_loop_reduced(model, loader, opt)
        if train_loss.isnan():
            sys.exit()


def worker_mean(rank, loader):
    model = DDP(torch.nn.Linear(8, 2).cuda(rank), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        losses = []
        for x, y in loader:
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.detach())
        train_loss = torch.stack(losses).mean()
        dist.all_reduce(train_loss, op=dist.ReduceOp.AVG)
        if train_loss.isnan():
            sys.exit()


def main(rank, loader):
    dist.init_process_group("nccl")
    torch.cuda.set_device(rank)
    worker_helper(rank, loader)
    worker_mean(rank, loader)
