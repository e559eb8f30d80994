# A group handed on through **kwargs: a dict display or dict(...) with
# constant keys binds each key to the parameter of that name.
import torch.distributed as dist

DP = dist.new_group([0, 1])  # alloc: D
TP = dist.new_group([0, 2])  # alloc: T


class Bucket:
    def __init__(self, buf, dp_group=None):
        self.buf = buf
        self.dp_group = dp_group

    def reduce(self):
        dist.all_reduce(self.buf, group=self.dp_group)  # group: new_group@D


def sync(t, group=None, op=None):
    dist.all_reduce(t, group=group)  # group: new_group@T


def build(buf):
    args = {"dp_group": DP}
    bucket = Bucket(buf, **args)
    bucket.reduce()
    sync(buf, **dict(group=TP))
