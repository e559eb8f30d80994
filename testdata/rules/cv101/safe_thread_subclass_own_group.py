# Each Thread subclass instance is handed a group that only it uses; the
# main thread communicates on another.
import threading

import torch.distributed as dist


class Syncer(threading.Thread):
    def __init__(self, group):
        super().__init__()
        self.group = group

    def run(self):
        dist.barrier(group=self.group)


def main(t):
    side = dist.new_group([0, 1], backend="gloo")
    Syncer(side).start()
    dist.all_reduce(t)
