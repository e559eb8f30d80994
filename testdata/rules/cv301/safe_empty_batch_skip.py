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
