# More ways past the wrapper: the module called directly (the fix calls
# the wrapper), its forward method, an instance attribute holding the
# wrapper, and a scaled loss.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def train_direct(net, loader, local_rank):
    model = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = nn.functional.cross_entropy(model.module(x), y)
        loss.backward()  # want CV304 "computed by `model.module` .*call the wrapper \(`model\(…\)`\)"
        opt.step()


def train_forward_method(net, loader, local_rank):
    model = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = nn.functional.mse_loss(model.module.forward(x), y)
        loss.backward()  # want CV304 "computed by `model.module.forward`"
        opt.step()


class Trainer:
    def __init__(self, net, local_rank):
        self.model = DDP(net.cuda(), device_ids=[local_rank])
        self.opt = torch.optim.AdamW(self.model.parameters())
        self.scaler = torch.cuda.amp.GradScaler()

    def step(self, x, y):
        with torch.autocast("cuda"):
            logits = self.model.module(x)
            loss = nn.functional.cross_entropy(logits, y)
        self.scaler.scale(loss).backward()  # want CV304 "past the DistributedDataParallel wrapper `self.model`"
        self.scaler.step(self.opt)
        self.scaler.update()


def pretrain_loss(dynamics, z):
    pred = dynamics(z)
    return (pred - z).pow(2).mean()


def train_through_helper(net, loader, local_rank):
    # dreamer4's dynamics trainer: the unwrapped module goes to the loss
    # helper, which runs its forward.
    dyn = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.AdamW(dyn.parameters())
    for z in loader:
        loss = pretrain_loss(dyn.module if hasattr(dyn, "module") else dyn, z)
        loss.backward()  # want CV304 "computed by `pretrain_loss` .*past the DistributedDataParallel wrapper `dyn`"
        opt.step()


def ema_loss_with_grad(local_rank, loader):
    # Outside no_grad, a loss made from the unwrapped module's own output
    # bypasses the wrapper.
    model = DDP(torch.nn.Linear(8, 8).cuda(), device_ids=[local_rank])
    for x in loader:
        with torch.autocast("cuda"):
            out = model.module(x)
        loss = out.sum()
        loss.backward()  # want CV304 "past the DistributedDataParallel wrapper"


def loss_reduced_for_the_log(local_rank, loader, opt):
    # The all-reduce averages the loss for the log, no gradient
    # (OpenP5's distributed runner).
    model = DDP(torch.nn.Linear(8, 1).cuda(), device_ids=[local_rank])
    for x, y in loader:
        out = model.module(x)
        loss = torch.nn.functional.mse_loss(out, y)
        loss.backward()  # want CV304 "past the DistributedDataParallel wrapper"
        opt.step()
        opt.zero_grad()
        dist.all_reduce(loss)
