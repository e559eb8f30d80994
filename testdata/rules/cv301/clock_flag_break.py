# A flag set where the clock says the budget is spent, read later to
# leave the loop: ranks cross the deadline at different steps, and the
# ones that leave strand the others in the next pass (cramming, whose
# all-reduce of the flags throws its result away).
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
        if not training_allowed:
            break
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "do not leave early .*`not training_allowed`"
