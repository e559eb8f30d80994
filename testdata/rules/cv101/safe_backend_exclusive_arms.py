# BNS-GCN's reducer: the pool thread reduces under gloo, the main thread
# under MPI. The backend is fixed for the whole process, so one arm runs
# in every call and the group is driven by one thread.
from multiprocessing.pool import ThreadPool

import torch.distributed as dist


class Reducer:
    def __init__(self):
        self.group = dist.new_group()
        self.pool = ThreadPool(processes=1)
        self.handles = []

    def reduce(self, data):
        def work():
            dist.all_reduce(data, group=self.group)

        if dist.get_backend() == "gloo":
            self.handles.append(self.pool.apply_async(work))
        elif dist.get_backend() == "mpi":
            dist.all_reduce(data, group=self.group)

    def synchronize(self):
        for h in self.handles:
            h.wait()
        self.handles.clear()
