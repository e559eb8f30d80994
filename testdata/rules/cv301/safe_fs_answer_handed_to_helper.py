# The answer is agreed first (rank 0's broadcast), or what is handed on is
# an object built from it, not the answer: the helper's test is no file
# check.
import os

import torch.distributed as dist


def load_if(t, found):
    if found:
        dist.all_reduce(t)


def resume_agreed(t, path):
    box = [os.path.exists(path)]
    dist.broadcast_object_list(box, src=0)
    load_if(t, box[0])


class Driver:
    def __init__(self, root):
        self.ok = os.path.isdir(root)


def run_with(t, drv):
    if isinstance(drv, Driver):
        dist.barrier()


def start(t, root):
    drv = Driver(root)
    run_with(t, drv)
