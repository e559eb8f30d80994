# Tests that read values: a property, a flag attribute, a callback that
# may be None, and predicates that are called.
import torch.distributed as dist


class Stage:
    def __init__(self, should_sync=None):
        self.is_ready = True
        self.should_sync = should_sync

    @property
    def is_first(self):
        return dist.get_rank() == 0

    def is_last(self):
        return dist.get_rank() == dist.get_world_size() - 1

    def step(self, t):
        if self.is_ready:
            dist.all_reduce(t)
        if self.should_sync:
            dist.barrier()
        if not self.is_first and not self.is_last():
            dist.send(t, dist.get_rank() + 1)
            dist.recv(t, dist.get_rank() - 1)
