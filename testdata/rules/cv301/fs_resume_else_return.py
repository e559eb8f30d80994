# A loader that returns early where this host finds no checkpoint (`if
# os.path.isfile(p): … else: return`) and only then sets the start
# epoch, through a local: the epoch loop runs as many passes as this
# host's disk says (CocktailSGD's load_checkpoint).
import os

import torch
import torch.distributed as dist


def load_model(args):
    if os.path.isfile(args.resume):
        with open(args.resume) as f:
            latest_step = int(f.read())
    else:
        return
    args.start_epoch = latest_step


def main(args):
    dist.init_process_group("nccl")
    x = torch.ones(4, device="cuda")
    load_model(args)
    for epoch in range(args.start_epoch, args.epochs):
        dist.all_reduce(x)  # want CV301 "whose bounds depend on a file system check"


def load_always(args):
    # Every host sets the same epoch, whatever it finds.
    if os.path.isfile(args.resume):
        with open(args.resume) as f:
            print(f.read())
    else:
        return
    args.start_epoch = 0


def main_always(args):
    dist.init_process_group("nccl")
    x = torch.ones(4, device="cuda")
    load_always(args)
    for epoch in range(args.start_epoch, args.epochs):
        dist.all_reduce(x)
