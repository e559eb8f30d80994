# The main thread's one collective on the default group runs before any
# task is submitted to the pool, and every task is waited before the
# function returns: the two communicators are never driven at once.
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
            dist.all_reduce(buf, group=self.group)
        self.handles.append(self.pool.apply_async(task))

    def synchronize(self):
        for h in self.handles:
            h.wait()
        self.handles.clear()


def main(backend, params):
    dist.init_process_group(backend)
    x = torch.zeros(4, device="cuda")
    dist.all_reduce(x)
    r = Reducer()
    r.init(params)
    for n, p in params:
        r.reduce(n, p)
    r.synchronize()


if __name__ == "__main__":
    main(sys.argv[1], [])
