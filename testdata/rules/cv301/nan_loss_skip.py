# A rank whose loss is NaN skips its backward; under DDP the backward is the
# gradient all-reduce, so the other ranks wait in it for that rank forever.
import math

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(net, loader, opt, crit):
    model = DDP(net)
    for x, y in loader:
        loss = crit(model(x), y)
        if torch.isnan(loss):
            opt.zero_grad()
            continue
        loss.backward()  # want CV301 "a NaN/Inf test of a value computed from each rank's own batch"
        opt.step()


def train_amp(net, loader, opt, scaler):
    model = DDP(net)
    for batch in loader:
        out = model(**batch)
        loss = out.loss / 4
        value = loss.item()
        if not math.isfinite(value):
            print("skipping a non-finite loss")
        else:
            scaler.scale(loss).backward()  # want CV301 "depends on `not math.isfinite"
            scaler.step(opt)
            scaler.update()


class Trainer:
    def __init__(self, net):
        self.model = DDP(net)

    def step(self, batch):
        loss = self.model(batch).sum()
        if loss.isnan().any():
            return None
        loss.backward()  # want CV301 "it reduces the gradients under DDP"
        return loss.detach()


def rank_zero_backward(net, x):
    model = DDP(net)
    loss = model(x).sum()
    if dist.get_rank() == 0:
        loss.backward()  # want CV301 "runs only when `dist.get_rank"


def rank_file(net, x):
    # The file name holds the rank: what is loaded differs between ranks.
    rank = dist.get_rank()
    state = torch.load(f"shard_{rank}.pt", map_location=f"cuda:{rank}")
    model = DDP(net)
    if state["skip"]:
        return
    model(x).sum().backward()  # want CV301 "do not leave early"


def accelerate_loop(net, opt, loader):
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, opt, loader = accelerator.prepare(net, opt, loader)
    for x in loader:
        loss = model(x).sum()
        if torch.isnan(loss):
            continue
        accelerator.backward(loss)  # want CV301 "NaN/Inf test"
        opt.step()


def clean_exit_on_nan(net, loader, opt):
    # A clean exit (status 0) is no failure: torchrun waits for the other
    # workers, which wait in the all-reduce.
    import sys

    model = DDP(net)
    for x in loader:
        loss = model(x).sum()
        if torch.isnan(loss):
            sys.exit(0)
        loss.backward()  # want CV301 "NaN/Inf test"


def accelerate_train(model, opt, loader, accelerator):
    for x in loader:
        loss = model(x).sum()
        if torch.isnan(loss):
            continue
        accelerator.backward(loss)  # want CV301 "NaN/Inf test"
        opt.step()


def accelerate_main(net, opt, loader):
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, opt, loader = accelerator.prepare(net, opt, loader)
    accelerate_train(model, opt, loader, accelerator)


def fabric_loop(net, opt, loader):
    from lightning.fabric import Fabric

    fabric = Fabric(strategy="ddp")
    model, opt = fabric.setup(net, opt)
    for x in loader:
        loss = model(x).sum()
        if not torch.isfinite(loss):
            continue
        fabric.backward(loss)  # want CV301 "NaN/Inf test"
        opt.step()


def deepspeed_loop(net, loader, cfg):
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=net, config=cfg)
    for x in loader:
        loss = engine(x).sum()
        if torch.isnan(loss):
            continue
        engine.backward(loss)  # want CV301 "NaN/Inf test"
        engine.step()


def train_any(net, loader, opt, crit):
    # any(...) over the losses this rank computed (lucidrains' stylegan2).
    model = DDP(net)
    for x, y in loader:
        g_loss = crit(model(x), y)
        d_loss = g_loss * 2
        if any(torch.isnan(v) for v in (g_loss, d_loss)):
            continue
        (g_loss + d_loss).backward()  # want CV301 "NaN/Inf test"
        opt.step()


def train_arms(net, loader, opt, distributed):
    # The loss comes from the wrapper's forward on the distributed arm of
    # a test every rank answers alike (flowprogen's FSDP trainer).
    model = DDP(net)
    for x in loader:
        if distributed:
            loss = model(x).sum()
        else:
            loss = torch.zeros(())
        if torch.isnan(loss) or torch.isinf(loss):
            opt.zero_grad()
            continue
        loss.backward()  # want CV301 "NaN/Inf test"
        opt.step()
