# DDP's join() context is made for uneven inputs: a rank whose data ran
# out shadows the others' gradient all-reduces until every rank has
# joined. wenet's NST executor leaves its loop on StopIteration inside it,
# through a local bound to model.join (nullcontext without DDP).
from contextlib import nullcontext

import torch.distributed as dist
from torch.distributed.algorithms import Join
from torch.nn.parallel import DistributedDataParallel as DDP


def train(net, loader):
    model = DDP(net)
    if dist.is_initialized():
        model_context = model.join
    else:
        model_context = nullcontext
    with model_context():
        it = iter(loader)
        while True:
            try:
                x = next(it)
            except StopIteration:
                break
            loss = model(x).sum()
            loss.backward()


def train_join(net, opt, loader):
    model = DDP(net)
    it = iter(loader)
    with Join([model, opt]):
        while True:
            try:
                x = next(it)
            except StopIteration:
                break
            model(x).sum().backward()
            opt.step()


def train_joined(net, loader):
    model = DDP(net)
    it = iter(loader)
    with model.join():
        while True:
            try:
                x = next(it)
            except StopIteration:
                break
            model(x).sum().backward()
