# The ExitStack runs its callbacks when the with block exits, also by an
# exception on one rank while the others wait in the loop's all-reduce
# (spidr's trainer): the teardown is a finally clause.
import os
from contextlib import ExitStack

import torch
import torch.distributed as dist


def train(max_steps):
    with ExitStack() as stack:
        dist.init_process_group(backend="nccl")
        stack.callback(dist.destroy_process_group)  # want CV301 "also on a rank whose work above raised"
        device = torch.device(f"cuda:{os.environ['LOCAL_RANK']}")
        for step in range(max_steps):
            x = torch.ones(1, device=device)
            dist.all_reduce(x)


def evaluate(model):
    # The teardown is registered after the work: it runs once every
    # collective has returned, or on no rank.
    with ExitStack() as stack:
        dist.init_process_group(backend="nccl")
        x = torch.ones(1, device="cuda")
        dist.all_reduce(x)
        stack.callback(dist.destroy_process_group)
