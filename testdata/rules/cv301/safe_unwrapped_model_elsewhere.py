# Unwrapping the model for a rank-0 save without breaking the ranks'
# DDP forwards: a new name for the module, an unwrap after the loop, a
# rank arm that leaves the loop, a variable every pass binds again,
# every rank unwrapping alike, and prepare_model told to wrap nothing.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from ray.train import get_context
from ray.train.torch import prepare_model


def new_name(model, data):
    rank = dist.get_rank()
    model = DDP(model)
    for x in data:
        model(x).sum().backward()
        if rank == 0:
            to_save = model.module
            torch.save(to_save.state_dict(), "ckpt.pt")


def after_loop(model, data):
    rank = dist.get_rank()
    model = DDP(model)
    for x in data:
        model(x).sum().backward()
    if rank == 0:
        model = model.module
        torch.save(model.state_dict(), "ckpt.pt")


def leaves_loop(model, data, limit):
    rank = dist.get_rank()
    model = DDP(model)
    for step, x in enumerate(data):
        model(x).sum().backward()
        if step == limit:
            if rank == 0:
                model = model.module
                torch.save(model.state_dict(), "ckpt.pt")
            break


def bound_each_pass(models, data):
    rank = dist.get_rank()
    for i, x in enumerate(data):
        model = models[i % 2]
        model(x).sum().backward()
        if rank == 0:
            model = model.module
            torch.save(model.state_dict(), "ckpt.pt")


def every_rank(model, data):
    rank = dist.get_rank()
    model = DDP(model)
    for x in data:
        model(x).sum().backward()
        if rank == 0:
            model = model.module
        else:
            model = model.module


def not_wrapped(model, data):
    rank = get_context().get_world_rank()
    model = prepare_model(model, parallel_strategy=None)
    for x in data:
        model(x).sum().backward()
        if rank == 0:
            model = model.module
            torch.save(model.state_dict(), "ckpt.pt")
