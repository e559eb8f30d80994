# A method no one in the program calls (the optimizer's public prefetch,
# called by its users) submits a gather to a pool thread, while the step
# all-reduces on the main thread over the same group. The class is
# instantiated here, so only its uncalled method's receiver was missing
# (DistributedSpeed's ZeRO engine).
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=4)
        self.pending = []

    def gather_async(self, t):
        out = [torch.empty_like(t) for _ in range(dist.get_world_size())]
        return dist.all_gather(out, t, async_op=True)  # want CV101 "issued from a pool worker"

    def prefetch_next(self, t):
        self.pending.append(self.pool.submit(self.gather_async, t))

    def step(self, g):
        dist.all_reduce(g)


class Engine:
    def __init__(self):
        self.opt = ShardedOptimizer()

    def step(self, g):
        self.opt.step(g)
