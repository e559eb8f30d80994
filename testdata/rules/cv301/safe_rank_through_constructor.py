# The rank kept by the constructor decides only who fills the object; every
# rank broadcasts.
import torch.distributed as dist


class SymmMem:
    def __init__(self, group_rank, group=None):
        self.group_rank = group_rank
        self.group = group

    def setup(self, handle):
        out = [handle if self.group_rank == 0 else None]
        dist.broadcast_object_list(out, src=0, group=self.group)
        return out[0]


def build(group, handle):
    m = SymmMem(dist.get_rank(group), group)
    return m.setup(handle)
