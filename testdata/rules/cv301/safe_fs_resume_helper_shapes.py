# The same helpers with the position agreed on before the loop: rank 0's
# epoch is broadcast, or the helper reads a path every rank is given.
import os

import torch
import torch.distributed as dist


def load_model(args, model):
    if args.resume:
        checkpoint = None
        if os.path.isfile(args.resume):
            checkpoint = torch.load(args.resume, map_location="cpu")
        if checkpoint is None:
            return
        model.load_state_dict(checkpoint["model"])
        args.start_epoch = checkpoint["epoch"] + 1


def load_given(args, model):
    checkpoint = torch.load(args.resume, map_location="cpu")
    model.load_state_dict(checkpoint["model"])
    args.start_epoch = checkpoint["epoch"] + 1


def train_agreed(args, model):
    load_model(args, model)
    start = [args.start_epoch]
    dist.broadcast_object_list(start, src=0)
    for epoch in range(start[0], args.epochs):
        dist.all_reduce(torch.ones(1, device="cuda"))


def train_given(args, model):
    load_given(args, model)
    for epoch in range(args.start_epoch, args.epochs):
        dist.all_reduce(torch.ones(1, device="cuda"))
