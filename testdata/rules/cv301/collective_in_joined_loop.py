# DDP's join() is there because ranks hold different numbers of batches;
# it shadows DDP's own collectives for a rank that ran out, not the
# loop's others (vall-e's validation all-reduce inside model.join()).
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def validate(model, valid_dl):
    tot = torch.zeros(2, device="cuda")
    for x in valid_dl:
        tot += model.module(x).sum()
    dist.all_reduce(tot)
    return tot


def train(net, train_dl, valid_dl, valid_interval):
    model = DDP(net.cuda())
    step = 0
    with model.join():
        for x in train_dl:
            model(x).sum().backward()
            step += 1
            if step % valid_interval == 0:
                validate(model, valid_dl)  # want CV301 "inside DDP's join\(\)"


def train_next(net, train_dl, valid_dl, valid_interval):
    # The same loop written with next() until StopIteration (icefall's and
    # lhotse's trainers).
    model = DDP(net.cuda())
    step = 0
    it = iter(train_dl)
    with model.join():
        while True:
            try:
                x = next(it)
            except StopIteration:
                break
            model(x).sum().backward()
            step += 1
            if step % valid_interval == 0:
                validate(model, valid_dl)  # want CV301 "runs in a loop over `it` inside DDP's join\(\)"


def compute_acc(score, agg):
    f1 = torch.tensor([score])
    if agg:
        dist.all_reduce(f1)
    return f1.item()


def train_model(model, opt, local_nid):
    for epoch in range(5):
        for batch in local_nid.split(16):
            opt.zero_grad()
            model(torch.randn(len(batch), 8)).sum().backward()
            opt.step()
        compute_acc(0.5, agg=True)  # want CV301 "inside DDP's join"


def train_in_helper(model, opt, local_nid):
    # The loop and its all-reduce in a function the join block calls
    # (EAT-DistGNN's train_model).
    with model.join():
        train_model(model, opt, local_nid)
