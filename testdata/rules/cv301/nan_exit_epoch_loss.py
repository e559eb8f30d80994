# A rank leaves training when its epoch's loss is NaN (revisiting-at's
# `if train_loss.isnan(): sys.exit()`, status 0, so the launcher does not
# end the job): the loss is this rank's own, whether the loop appends the
# batch losses and takes their mean, or a helper handed the DDP model
# returns it, or a method of the trainer does.
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train_loop(model, loader, opt):
    for x, y in loader:
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    return loss


def worker_helper(rank, loader):
    model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 2), torch.nn.BatchNorm1d(2)).cuda(rank), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        train_loss = train_loop(model, loader, opt)  # want CV301 "runs only on the ranks that do not leave early .*NaN/Inf test"
        if train_loss.isnan():
            sys.exit()


def worker_mean(rank, loader):
    model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 2), torch.nn.BatchNorm1d(2)).cuda(rank), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        losses = []
        for x, y in loader:
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)  # want CV301 "runs only on the ranks that do not leave early .*NaN/Inf test"
            loss.backward()
            opt.step()
            losses.append(loss.detach())
        train_loss = torch.stack(losses).mean()
        if train_loss.isnan():
            sys.exit()


class Trainer:
    def __init__(self, rank, loader):
        self.model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 2), torch.nn.BatchNorm1d(2)).cuda(rank), device_ids=[rank])
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.loader = loader

    def train_loop(self, log_level):
        model = self.model
        losses = []
        for x, y in self.loader:
            self.opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            self.opt.step()
            if log_level > 0:
                losses.append(loss.detach())
        return torch.stack(losses).mean()

    def train(self, epochs):
        for epoch in range(epochs):
            train_loss = self.train_loop(1)  # want CV301 "runs only on the ranks that do not leave early .*NaN/Inf test"
            if train_loss.isnan():
                sys.exit()


def main(rank, loader):
    dist.init_process_group("nccl")
    torch.cuda.set_device(rank)
    worker_helper(rank, loader)
    worker_mean(rank, loader)
    Trainer(rank, loader).train(10)
