# The main thread's collective on the default group runs while the pool's
# task may be in flight on the reducer's group (safe_collective_before_
# pool_submit.py issues it before submitting).
import sys
from multiprocessing.pool import ThreadPool

import torch
import torch.distributed as dist


class Reducer:
    def init(self, params):
        self.group = dist.new_group()
        self.bufs = {n: torch.zeros_like(p, device="cuda") for n, p in params}
        self.pool = ThreadPool(processes=1)
        self.handles = []

    def reduce(self, name, grad):
        def task():
            buf = self.bufs[name]
            buf.copy_(grad)
            dist.all_reduce(buf, group=self.group)  # want CV103 "all_reduce on group new_group@.* is issued from a pool worker"
        self.handles.append(self.pool.apply_async(task))

    def synchronize(self):
        for h in self.handles:
            h.wait()
        self.handles.clear()


def main(backend, params):
    dist.init_process_group(backend)
    r = Reducer()
    r.init(params)
    for n, p in params:
        r.reduce(n, p)
    x = torch.zeros(4, device="cuda")
    dist.all_reduce(x)
    r.synchronize()


if __name__ == "__main__":
    main(sys.argv[1], [])
