# The pool task and an inline call on the same group in one run.
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist


def reduce_metrics(t, group):
    dist.reduce(t, 0, group=group)  # want CV101 "pool worker"


class Trainer:
    def __init__(self, use_thread):
        self.use_thread = use_thread
        self.pg = dist.new_group(backend="gloo")
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.t = torch.zeros(1)

    def log_metrics(self, flush):
        if self.use_thread:
            self.pool.submit(reduce_metrics, self.t, self.pg)
        if flush:
            reduce_metrics(self.t, self.pg)
