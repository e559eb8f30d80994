# Each rank's loss is its own batch's: a loop left, or a backward
# skipped, when it crosses a bound leaves the other ranks in the next
# gradient all-reduce (llmfs's `if loss.item() < 0.06: break`,
# ClearerVoice's `if loss_bw < 999999: loss_bw.backward()`).
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(model, loader, optimizer, criterion):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = DDP(model.cuda(), device_ids=[local_rank])
    for data, target in loader:
        optimizer.zero_grad()
        loss = criterion(model(data.cuda()), target.cuda())  # want CV301 "comparison of a value computed from each rank's own batch"
        loss.backward()
        optimizer.step()
        if float(loss.item()) < 0.06:
            break


def train_bounded(model, loader, optimizer):
    model = DDP(model.cuda())
    for data in loader:
        loss = model(data.cuda()).mean()
        if loss < 999999:
            loss.backward()  # want CV301 "comparison of a value computed from each rank's own batch"
            optimizer.step()


def train_accumulated(model, loader, optimizer):
    # The epoch's running loss sums this rank's losses: a NaN in it is
    # this rank's (MicroLens's SASRec loop).
    model = DDP(model.cuda())
    total = 0.0
    for x in loader:
        batch_loss = model(x.cuda()).mean()  # want CV301 "NaN/Inf test"
        total += batch_loss.data.float()
        batch_loss.backward()
        optimizer.step()
        if torch.isnan(total):
            break
