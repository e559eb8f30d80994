# A private getter of a group (`_get_group`), not a maker: rank 0 holding
# it says nothing about who else is a member.
import torch.distributed as dist
from mypkg.distributed import _get_data_parallel_group


class Syncer:
    def __init__(self, model):
        self.model = model
        self.group = None
        if dist.get_rank() == 0:
            self.group = _get_data_parallel_group()

    def sync(self):
        for p in self.model.parameters():
            if dist.get_rank() == 0:
                dist.broadcast(p.data, 0, group=self.group)  # want CV301 "broadcast"
