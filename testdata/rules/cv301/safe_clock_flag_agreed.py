# The flag the clock set is agreed on before anyone leaves: the minimum
# over the ranks goes back into it.
import time

import torch
import torch.distributed as dist


def check_deadline(launch_time, hour_limit):
    return (time.time() - launch_time) / 3600 > hour_limit


def train(loader, step_fn, budget):
    start = time.time()
    training_allowed = True
    for batch in loader:
        step_fn(batch)
        if check_deadline(start, budget):
            training_allowed = False
        flag = torch.tensor([float(training_allowed)], device="cuda")
        dist.all_reduce(flag, dist.ReduceOp.MIN)
        training_allowed = bool(flag.item() >= 1)
        if not training_allowed:
            break
        dist.all_reduce(torch.ones(1, device="cuda"))
