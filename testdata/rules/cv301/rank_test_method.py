# A predicate the program writes for itself: only the group's rank 0
# all-reduces; the other members never do.
import torch.distributed as dist


class Stage:
    def __init__(self, group):
        self.group = group

    def is_head(self):
        """Whether this rank leads the stage."""
        return dist.get_rank(self.group) == 0

    def sync(self, t):
        if self.is_head():
            dist.all_reduce(t, group=self.group)  # want CV301 "runs only when `self.is_head\(\)` holds"


def is_first():
    return dist.get_rank() == 0


def log_once(t):
    if is_first():
        dist.barrier()  # want CV301 "runs only when `is_first\(\)` holds"
