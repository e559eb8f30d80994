# A helper that returns its argument without reducing it leaves the
# clock check each rank's own.
import time

import torch
import torch.distributed as dist


class Ctx:
    def as_flag(self, values):
        return values

    def sum(self, values):
        dist.all_reduce(values)
        return values


def train(ctx: Ctx, steps, max_hours):
    started = time.perf_counter()
    for step in range(steps):
        ctx.sum(torch.ones(1))  # want CV301 "all_reduce"
        elapsed = time.perf_counter() - started
        timeout = ctx.as_flag(torch.tensor(int(elapsed >= max_hours * 3600))).item() > 0
        if timeout:
            break
