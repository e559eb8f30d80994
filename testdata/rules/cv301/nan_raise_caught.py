# A NaN test of this rank's own loss raises an exception that a handler
# of the same function catches: the rank leaves the rest of the try's
# body (the other ranks' backward all-reduces) and goes on after the
# handler, to collectives the others are not at yet.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class StopTraining(Exception):
    pass


class SkipStep(Exception):
    pass


def caught_outside_loop(model, loader, opt):
    try:
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(model(x), y)
            if torch.isnan(loss):
                raise StopTraining("nan")
            loss.backward()  # want CV301 "leave early"
            opt.step()
    except StopTraining:
        pass
    dist.barrier()


def caught_inside_loop(model, loader, opt):
    for x, y in loader:
        try:
            loss = torch.nn.functional.mse_loss(model(x), y)
            if torch.isnan(loss):
                raise SkipStep()
            loss.backward()  # want CV301 "leave early"
            opt.step()
        except SkipStep:
            continue


def main(loader):
    dist.init_process_group("nccl")
    model = DDP(torch.nn.Linear(4, 1).cuda())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    caught_outside_loop(model, loader, opt)
    caught_inside_loop(model, loader, opt)
