# A rank handed to a constructor and kept in an attribute: a method's test
# of that attribute splits the ranks (flashinfer's symmetric-memory
# helper's shape).
import torch.distributed as dist


class SymmMem:
    def __init__(self, group_rank, group=None):
        self.group_rank = group_rank
        self.group = group

    def setup(self, handle):
        out = [handle]
        if self.group_rank == 0:
            dist.broadcast_object_list(out, src=0, group=self.group)  # want CV301 "self.group_rank == 0"
        return out[0]


def build(group, handle):
    m = SymmMem(dist.get_rank(group), group)
    return m.setup(handle)
