# The pool arm is chosen by the backend, but the main thread also reduces
# on the same group after the if, whatever the backend: under gloo both
# threads drive the group.
from multiprocessing.pool import ThreadPool

import torch.distributed as dist


class Reducer:
    def __init__(self):
        self.group = dist.new_group()
        self.pool = ThreadPool(processes=1)
        self.handles = []

    def reduce(self, data, norm):
        def work():
            dist.all_reduce(data, group=self.group)  # want CV101 "all_reduce on group new_group"

        if dist.get_backend() == "gloo":
            self.handles.append(self.pool.apply_async(work))
        elif dist.get_backend() == "mpi":
            dist.all_reduce(data, group=self.group)
        dist.all_reduce(norm, group=self.group)
