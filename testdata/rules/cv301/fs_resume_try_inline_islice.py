# Resume positions read from a checkpoint each host may or may not have,
# in three more spellings: a try whose handler catches the missing file,
# a helper called inline in range(), and itertools.islice skipping the
# consumed batches. Hosts that see different files run different numbers
# of passes.
import itertools
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def load_step(path):
    if not os.path.exists(path):
        return 0
    return torch.load(path)["step"]


def resume_try(model, opt, loader):
    try:
        state = torch.load("ckpt/last.pt")
        start_epoch = state["epoch"] + 1
    except FileNotFoundError:
        start_epoch = 0
    for epoch in range(start_epoch, 10):
        for batch in loader:
            loss = model(batch.cuda()).sum()  # want CV301 "is issued once per element of `range\(start_epoch, 10\)`, whose bounds depend on a file system check"
            loss.backward()
            opt.step()


def resume_inline():
    for step in range(load_step("ckpt/meta.pt"), 1000):
        t = torch.ones(1).cuda()
        dist.all_reduce(t)  # want CV301 "is issued once per element of `range\(load_step\(\"ckpt/meta.pt\"\), 1000\)`"


def resume_islice(loader):
    consumed = 0
    if os.path.isfile("ckpt/meta.pt"):
        consumed = torch.load("ckpt/meta.pt")["batches"]
    for batch in itertools.islice(loader, consumed, None):
        t = batch.sum().cuda()
        dist.all_reduce(t)  # want CV301 "is issued once per element of `itertools.islice\(loader, consumed, None\)`"


def main(loader):
    dist.init_process_group("nccl")
    model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8)).cuda())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    resume_try(model, opt, loader)
    resume_inline()
    resume_islice(loader)
