# Each distributor makes its own group in __init__, and the distributors
# are made in a comprehension: one group per instance, each driven by its
# own pool task. No group is shared by two threads (not CV101), but
# several device communicators are driven from several threads.
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist


class Distributor:
    def __init__(self, group_size):
        self._group = dist.new_subgroups(group_size=group_size)[0]
        self._buf = torch.zeros(8)
        self._out = torch.zeros(8 * group_size)

    def update_params(self):
        dist.all_gather_into_tensor(self._out, self._buf, group=self._group)  # want CV103 "a group created once per loop iteration or thread"


class Optimizer:
    def __init__(self, n_groups, group_size):
        self._ds = [Distributor(group_size) for _ in range(n_groups)]
        self._pool = ThreadPoolExecutor(max_workers=n_groups)

    def step(self):
        for f in [self._pool.submit(d.update_params) for d in self._ds]:
            f.result()
