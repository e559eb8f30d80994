# Skip tests every rank answers alike: a step agreed on by broadcast, a
# step from the command line, a file read at a path every rank is given
# (no look at the host's disk), and a test on the loop's value that does
# not skip the pass.
import os

import torch
import torch.distributed as dist


def agreed(steps, loss):
    first = [0]
    if dist.get_rank() == 0 and os.path.exists("model.pt"):
        with open("step") as f:
            first[0] = int(f.read()) + 1
    dist.broadcast_object_list(first, src=0)
    for step in range(steps):
        if step < first[0]:
            continue
        dist.all_reduce(loss)


def from_args(args, loss):
    for step in range(args.steps):
        if step < args.start_step:
            continue
        dist.all_reduce(loss)


def given_file(args, loss):
    with open(args.step_file) as f:
        first_step = int(f.read())
    for step in range(args.steps):
        if step < first_step:
            continue
        dist.all_reduce(loss)


def warmup_only(steps, loss, path):
    start = 0
    if os.path.isfile(path):
        start = torch.load(path)["iteration"]
    for it in range(steps):
        if it < start:
            loss = loss * 0.5
        dist.all_reduce(loss)
