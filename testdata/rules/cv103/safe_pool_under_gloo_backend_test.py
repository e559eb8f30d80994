# The pool worker exists only where the default group's backend is gloo
# (BNS-GCN's reducer): the group new_group makes without a backend
# inherits it, so the worker drives no device communicator, whatever the
# backend the command line chose (`init_process_group(args.backend)`).
import sys
from multiprocessing.pool import ThreadPool

import torch
import torch.distributed as dist


class Reducer:
    def __init__(self):
        self.groups = {}
        self.pool = None
        self.handles = []

    def init(self, model):
        for name, _ in model.named_parameters():
            self.groups[name] = dist.new_group()
        if dist.get_backend() == "gloo":
            self.pool = ThreadPool(processes=4)

    def reduce(self, name, grad):
        def work():
            cpu = grad.cpu()
            dist.all_reduce(cpu, group=self.groups[name])
            grad.copy_(cpu)

        if dist.get_backend() == "gloo":
            self.handles.append(self.pool.apply_async(work))
        elif dist.get_backend() == "mpi":
            dist.all_reduce(grad, group=self.groups[name])
        else:
            raise NotImplementedError


def main(args, model, x):
    dist.init_process_group(args.backend)
    reducer = Reducer()
    reducer.init(model)
    for name, p in model.named_parameters():
        reducer.reduce(name, p.grad)
    dist.all_reduce(x)


if __name__ == "__main__":
    main(sys.argv, None, torch.zeros(8))
