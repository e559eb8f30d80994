# A group looked up rather than made (a getter of the project's parallel
# state, which may hand back the data-parallel group of every rank): rank
# 0 holding it says nothing about who else is a member.
import torch.distributed as dist
from mypkg.parallel_state import get_data_parallel_group


class Syncer:
    def __init__(self, model):
        self.model = model
        self.group = None
        if dist.get_rank() == 0:
            self.group = get_data_parallel_group()

    def sync(self):
        for p in self.model.parameters():
            if dist.get_rank() == 0:
                dist.broadcast(p.data, 0, group=self.group)  # want CV301 "broadcast"
