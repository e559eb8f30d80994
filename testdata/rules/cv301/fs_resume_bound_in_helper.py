# Each rank globs its own checkpoint directory and hands the resumed epoch
# to the helper whose loop it bounds (MTR's train_model): on hosts that
# see different checkpoints the ranks run different numbers of DDP steps.
# Read directly or through a model method that returns what it loaded.
import glob
import os

import torch
import torch.distributed as dist
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x).sum()

    def load_params(self, filename):
        checkpoint = torch.load(filename, map_location="cpu")
        self.load_state_dict(checkpoint["model_state"])
        return checkpoint.get("it", 0), checkpoint.get("epoch", -1)


def train_model(model, optimizer, start_epoch, total_epochs):
    for epoch in range(start_epoch, total_epochs):
        optimizer.zero_grad()
        loss = model(torch.randn(2, 4).cuda())  # want CV301 "is issued once per element of `range\(start_epoch, total_epochs\)`, whose bounds depend on a file system check"
        loss.backward()
        optimizer.step()


def train_epochs(model, first, last):
    for epoch in range(first, last):
        loss = model(torch.randn(2, 4).cuda())  # want CV301 "is issued once per element of `range\(first, last\)`, whose bounds depend on a file system check"
        loss.backward()


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    model = Net().cuda()
    optimizer = torch.optim.Adam(model.parameters())
    start_epoch = it = 0
    ckpt_list = glob.glob("output/ckpt/*.pth")
    if len(ckpt_list) > 0:
        it, start_epoch = model.load_params(ckpt_list[-1])
    model = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
    train_model(model, optimizer, start_epoch=start_epoch, total_epochs=10)


def main_direct():
    dist.init_process_group("nccl")
    model = nn.parallel.DistributedDataParallel(Net().cuda())
    first = 0
    ckpts = glob.glob("ckpt/*.pth")
    if len(ckpts) > 0:
        first = torch.load(ckpts[-1])["epoch"] + 1
    train_epochs(model, first, 10)
