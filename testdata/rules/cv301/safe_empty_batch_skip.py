# Skipping agreed on every rank, a test of the step counter, and a model
# that synchronises nothing are fine.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def agreed(net, train_loader, opt):
    model = DDP(net)
    for batch in train_loader:
        empty = torch.tensor(float(batch is None))
        dist.all_reduce(empty)
        if empty.item() > 0:
            continue
        model(batch).sum().backward()
        opt.step()


def accumulate(net, train_loader, opt, accum):
    model = DDP(net)
    for step, batch in enumerate(train_loader):
        model(batch).sum().backward()
        if step % accum != 0:
            continue
        opt.step()


def local(net, train_loader, opt):
    for batch in train_loader:
        if batch is None:
            continue
        net(batch).sum().backward()
        opt.step()


def agreed_threshold(net, train_loader, opt, min_loss_tokens):
    # Every rank counts the tokens of all ranks before deciding.
    model = DDP(net)
    for batch in train_loader:
        tokens = batch["loss_mask"].sum()
        dist.all_reduce(tokens)
        if tokens.item() < min_loss_tokens:
            continue
        model(batch).sum().backward()
        opt.step()


def threshold_on_step(net, train_loader, opt, warmup):
    model = DDP(net)
    for step, batch in enumerate(train_loader):
        if step < warmup:
            continue
        model(batch).sum().backward()
        opt.step()
