# Inside DDP's join() a rank that skips a batch runs out of passes first,
# and join() shadows the model's forwards and backwards for it (MASR's
# trainer; DDP's uneven inputs).
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train_epoch(model, opt, loader):
    # DDP's Join context: a rank that runs fewer iterations shadows the
    # others' collectives, so skipping a batch on one rank does not hang
    with model.join():
        for inputs, labels in loader:
            inputs, labels = inputs.cuda(), labels.cuda()
            if labels.size(0) == 0:
                continue
            loss = torch.nn.functional.mse_loss(model(inputs), labels)
            loss.backward()
            opt.step()
            opt.zero_grad()


def main(loader):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = DDP(torch.nn.Linear(8, 1).cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        train_epoch(model, opt, loader)
