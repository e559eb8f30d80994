# Inside DDP's join() a rank that skips a batch runs out of passes first,
# and join() shadows the model's own collectives for it, not an explicit
# all-reduce in the pass, nor anything outside a join block.
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train_epoch(model, opt, loader):
    with model.join():
        for inputs, labels in loader:
            if labels.size(0) == 0:
                continue
            loss = torch.nn.functional.mse_loss(model(inputs), labels)
            loss.backward()
            dist.all_reduce(loss)  # want CV301 "inside DDP's join"
            opt.step()


def train_epoch_no_join(model, opt, loader):
    for inputs, labels in loader:
        if labels.size(0) == 0:
            continue
        loss = torch.nn.functional.mse_loss(model(inputs), labels)
        loss.backward()  # want CV301 "labels.size\(0\) == 0"
        opt.step()


def main(loader):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = DDP(torch.nn.Linear(8, 1).cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train_epoch(model, opt, loader)
    train_epoch_no_join(model, opt, loader)
