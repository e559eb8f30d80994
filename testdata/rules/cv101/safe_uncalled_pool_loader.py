# A method no one in the program calls hands a host-only loader to a pool
# thread: the thread issues no collective, and the main thread's
# all-reduce is the only one on the group.
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist


class Prefetcher:
    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=2)
        self.pending = []

    def load(self, path):
        return torch.load(path, map_location="cpu")

    def prefetch(self, path):
        self.pending.append(self.pool.submit(self.load, path))

    def step(self, g):
        dist.all_reduce(g)


class Engine:
    def __init__(self):
        self.loader = Prefetcher()

    def step(self, g):
        self.loader.step(g)
