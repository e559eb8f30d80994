# A rank test stored on an object the worker hands to its helpers
# (CyCLIP's `options.master = rank == 0`, then `if options.master:` in
# evaluate): the helper's parameter carries the rank attribute too, and
# the DDP model's forward it runs on the master alone broadcasts the
# BatchNorm buffers that no other rank joins.
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP


def validation_loss(model, loader):
    with torch.no_grad():
        return sum(model(x).sum().item() for x in loader)


def evaluate(model, loader, options):
    metrics = {}
    if options.master:
        metrics["loss"] = validation_loss(model, loader)  # want CV301 "options.master"
    if options.log:
        metrics["loss"] = validation_loss(model, loader)  # not a rank attribute
    return metrics


def worker(rank, options, loader):
    options.rank = rank
    options.master = rank == 0
    options.log = True
    dist.init_process_group("nccl", rank=rank, world_size=options.n)
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)).cuda()
    model = DDP(net, device_ids=[rank])
    evaluate(model, loader, options)


def main(options, loader):
    mp.spawn(worker, args=(options, loader), nprocs=options.n)
