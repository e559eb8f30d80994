# The module is wrapped under another name, and the training step still
# calls it by its own: the wrapper's forward never runs, so its backward
# all-reduces nothing (a DDP tutorial's `ddp_model` beside `model`;
# alignn's `net(…)` after `model = accelerator.prepare(net)`).
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.nn.parallel import DistributedDataParallel as DDP


def train_ddp(loader, rank):
    model = nn.Linear(8, 1).cuda()
    ddp_model = DDP(model, device_ids=[rank])
    opt = torch.optim.SGD(ddp_model.parameters(), lr=0.1)
    for x in loader:
        loss = model(x).sum()
        loss.backward()  # want CV304 "loss computed by `model` .*the module that line 13 wraps as `ddp_model`, called by its own name"
        opt.step()


def train_prepared(net, loader, optimizer):
    accelerator = Accelerator()
    loader, model, optimizer = accelerator.prepare(loader, net, optimizer)
    for x, y in loader:
        loss = nn.functional.l1_loss(net(x), y)
        accelerator.backward(loss)  # want CV304 "loss computed by `net` .*wraps as `model`"
        optimizer.step()


def train_fabric(loader):
    # Fabric's setup hands back the wrapped model first, then the
    # optimizers (OpenThaiGPT's Fabric trainer kept the raw module).
    import lightning as L

    fabric = L.Fabric(accelerator="cuda", strategy="ddp", devices=2)
    net = nn.Linear(8, 1)
    opt = torch.optim.AdamW(net.parameters())
    model, opt = fabric.setup(net, opt)
    for x in loader:
        loss = net(x).sum()
        fabric.backward(loss)  # want CV304 "loss computed by `net` .*wraps as `model`"
        opt.step()
