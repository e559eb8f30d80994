# A raise that no handler of the function catches, or whose handler
# raises again, fails the rank and the launcher stops the others; a raise
# on an all-reduced flag is taken by every rank alike.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class StopTraining(Exception):
    pass


class SkipStep(Exception):
    pass


def reraised(model, loader, opt):
    try:
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(model(x), y)
            if torch.isnan(loss):
                raise StopTraining("nan")
            loss.backward()
    except StopTraining:
        print("nan")
        raise
    dist.barrier()


def uncaught(model, loader, opt):
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        if torch.isnan(loss):
            raise StopTraining("nan")
        loss.backward()


def agreed(model, loader, opt):
    try:
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(model(x), y)
            bad = torch.isnan(loss).float()
            dist.all_reduce(bad)
            if bad.item() > 0:
                raise StopTraining("nan")
            loss.backward()
    except StopTraining:
        pass
    dist.barrier()


def main(loader):
    dist.init_process_group("nccl")
    model = DDP(torch.nn.Linear(4, 1).cuda())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    reraised(model, loader, opt)
    uncaught(model, loader, opt)
    agreed(model, loader, opt)
