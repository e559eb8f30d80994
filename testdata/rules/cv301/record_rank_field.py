# The field given the rank test is still a rank value, until the record
# is rebuilt without it.
from dataclasses import dataclass

import torch.distributed as dist


@dataclass
class Env:
    leader: bool
    world: int


def run(t):
    env = Env(leader=dist.get_rank() == 0, world=dist.get_world_size())
    if env.leader:
        dist.barrier()  # want CV301 "runs only when `env.leader` holds"
    env = Env(leader=True, world=1)
    if env.leader:
        dist.all_reduce(t)
