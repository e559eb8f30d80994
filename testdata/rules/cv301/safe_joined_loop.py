# Inside DDP's join(): only DDP's own collectives in the loop, a loop that
# leaves when the ranks agree, and the metric reduced after the block.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def all_done(flag, group):
    t = torch.tensor([float(flag)])
    dist.all_reduce(t, group=group)
    return t.item() > 0


def train(net, train_dl, group):
    model = DDP(net.cuda())
    tot = torch.zeros(1, device="cuda")
    with model.join():
        for x in train_dl:
            loss = model(x).sum()
            loss.backward()
            tot += loss.detach()
    dist.all_reduce(tot)
    it = iter(train_dl)
    with model.join():
        for _ in range(1000):
            batch = next(it, None)
            if all_done(batch is None, group):
                break
            model(batch).sum().backward()
            dist.all_reduce(tot)


def train_next(net, train_dl):
    # next() until StopIteration with only DDP's own collectives inside.
    model = DDP(net.cuda())
    tot = torch.zeros(1, device="cuda")
    it = iter(train_dl)
    with model.join():
        while True:
            try:
                x = next(it)
            except StopIteration:
                break
            loss = model(x).sum()
            loss.backward()
            tot += loss.detach()
    dist.all_reduce(tot)


def train_steps(model, opt, loader):
    for batch in loader:
        opt.zero_grad()
        model(batch).sum().backward()
        opt.step()


def train_in_helper(model, opt, loader):
    # The helper's loop issues DDP's own collectives only, which join()
    # shadows for the ranks that have run out.
    with model.join():
        train_steps(model, opt, loader)
