# The head's weight-update group, made after the other ranks leave, used
# after the same exit: only its members use it.
import torch.distributed as dist
from torch.distributed.distributed_c10d import _new_process_group_helper


def init_custom_process_group(world_size, rank, store, group_name):
    pg, _ = _new_process_group_helper(world_size, rank, [], "nccl", store, group_name=group_name)
    return pg


class Updater:
    def __init__(self):
        self.ready = True
        self.head = dist.get_rank() == 0

    def is_head(self):
        assert self.ready
        return self.head

    def init_groups(self, store):
        # The ranks that are not the head leave before the group is made.
        if not self.is_head():
            return
        self.group = init_custom_process_group(2, 0, store, "weights")

    def push(self, t):
        if not self.is_head():
            return
        dist.broadcast(t, 0, group=self.group)
