# Both tasks go to one single-worker pool, made on first use behind a
# property: they run one after another, in submission order.
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist


class Trainer:
    _pool = None

    def __init__(self):
        self.pg = dist.new_group(backend="gloo")
        self.t = torch.zeros(1)

    @property
    def pool(self):
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1)
        return self._pool

    def _check(self):
        dist.all_reduce(self.t, group=self.pg)

    def _metrics(self):
        dist.reduce(self.t, 0, group=self.pg)

    def step(self):
        self.pool.submit(self._check)
        self.pool.submit(self._metrics)
