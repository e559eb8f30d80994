# The original name is used only for what runs no forward (parameters,
# saving), rebound to the wrapper before training, or called for
# evaluation with no backward; the training step calls the wrapper.
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.nn.parallel import DistributedDataParallel as DDP


def train_ddp(loader, rank):
    model = nn.Linear(8, 1).cuda()
    ddp_model = DDP(model, device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        loss = ddp_model(x).sum()
        loss.backward()
        opt.step()
    with torch.no_grad():
        print(model(x).mean())
    torch.save(model.state_dict(), "model.pt")


def train_rebound(loader, rank):
    model = nn.Linear(8, 1).cuda()
    ddp_model = DDP(model, device_ids=[rank])
    model = ddp_model
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()


def train_prepared(net, loader, optimizer):
    accelerator = Accelerator()
    loader, model, optimizer = accelerator.prepare(loader, net, optimizer)
    for x, y in loader:
        loss = nn.functional.l1_loss(model(x), y)
        accelerator.backward(loss)
        optimizer.step()


def train_fabric(loader):
    import lightning as L

    fabric = L.Fabric(accelerator="cuda", strategy="ddp", devices=2)
    net = nn.Linear(8, 1)
    opt = torch.optim.AdamW(net.parameters())
    model, opt = fabric.setup(net, opt)
    for x in loader:
        loss = model(x).sum()
        fabric.backward(loss)
        opt.step()
