# The wrapper is made and thrown away at once: the name (or attribute)
# that held it is rebound to the module inside, so every forward after
# that runs past DistributedDataParallel and no gradient is all-reduced
# (a MusicGen fine-tuning script's `model.lm = model.lm.module`).
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def train_local(loader, local_rank):
    model = nn.Linear(8, 8).to(local_rank)
    model = DDP(model, device_ids=[local_rank])
    model = model.module
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        loss = model(x).pow(2).mean()
        loss.backward()  # want CV304 "loss computed by `model` .*wrapper that line 13 throws away by rebinding `model` to its module"
        opt.step()


class Holder:
    def __init__(self):
        self.lm = nn.Linear(8, 8)


def train_attribute(holder, loader, local_rank):
    holder.lm = DDP(holder.lm.to(local_rank), device_ids=[local_rank])
    holder.lm = holder.lm.module
    opt = torch.optim.AdamW(holder.lm.parameters())
    for x in loader:
        loss = holder.lm(x).pow(2).mean()
        loss.backward()  # want CV304 "loss computed by `holder.lm` .*line 28 throws away"
        opt.step()
