# A helper returns None when this rank's batch is empty, and the caller
# skips the pass on that None: that rank skips the backward the others
# reduce in (SkySense++'s trainer, a tuple of Nones there).
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def forward_pass(model, batch):
    if not batch:
        return None
    return model(batch["x"]).sum()


def forward_report(model, batch):
    if not batch:
        return None, None
    out = model(batch["x"])
    return out.sum(), out


def train(model, loader, opt):
    for batch in loader:
        loss = forward_pass(model, batch)
        if loss is None:
            continue
        loss.backward()  # want CV301 "backward\(\) .*runs only on the ranks that do not leave early"
        opt.step()


def train_report(model, loader, opt):
    for batch in loader:
        report, _ = forward_report(model, batch)
        if report is None:
            continue
        report.backward()  # want CV301 "backward\(\) .*runs only on the ranks that do not leave early"
        opt.step()


def main(loader):
    dist.init_process_group("nccl")
    model = DDP(torch.nn.Linear(2, 2).cuda())
    opt = torch.optim.SGD(model.parameters(), 0.1)
    train(model, loader, opt)
    train_report(model, loader, opt)
