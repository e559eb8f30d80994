import threading
import torch.distributed as dist

dist.init_process_group(backend="gloo")


class Trainer:
    def __init__(self):
        self.pg = dist.new_group([0])  # alloc: G
        self.cb = self._loop

    def _loop(self):
        dist.all_reduce(None, group=self.pg)  # context: thread@T  # group: new_group@G

    def start(self):
        threading.Thread(target=self.cb).start()  # spawn: T


def make_group():
    return dist.new_group([1])  # alloc: R


def use_returned():
    g = make_group()
    dist.barrier(group=g)  # group: new_group@R  # context: main


Trainer().start()
use_returned()


class BaseHolder:
    # Never instantiated itself: its __init__ runs for SubHolder only.
    def __init__(self):
        self.pg = dist.new_group([2])  # alloc: B
        self.op = dist.all_reduce


class SubHolder(BaseHolder):
    pass


def use_subclass_attrs():
    h = SubHolder()
    dist.barrier(group=h.pg)  # group: new_group@B  # context: main
    h.op(None, group=h.pg)  # group: new_group@B  # context: main


use_subclass_attrs()
