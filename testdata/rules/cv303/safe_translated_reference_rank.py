# A library's own copy of torch's rank translation, kept on the instance:
# the global rank of the group's rank 0 is one rank for everyone.
import torch.distributed as dist

from sharded_utils import get_global_rank


class ShardedDDP:
    def __init__(self, group):
        self.group = group
        self.reference_global_rank = get_global_rank(self.group, 0)
        self.rank = dist.get_rank(self.group)

    def sync_buffers(self, buffers):
        for b in buffers:
            dist.broadcast(b, self.reference_global_rank, self.group)
