# An object built with the rank keeps it in a field, and code elsewhere
# tests the field: a data class a setup helper returns (rq-vae's DistEnv,
# master=(dist.get_rank() == 0)), or an object whose constructor sets it,
# handed to a trainer that tests self.env.master.
from dataclasses import dataclass

import torch.distributed as dist


@dataclass
class DistEnv:
    world_size: int
    master: bool


def initialize():
    dist.init_process_group("nccl")
    return DistEnv(world_size=dist.get_world_size(), master=(dist.get_rank() == 0))


class Env:
    def __init__(self):
        self.master = dist.get_rank() == 0


class Trainer:
    def __init__(self, env):
        self.env = env

    def run(self):
        if self.env.master:
            dist.barrier()  # want CV301 "barrier .* runs only when `self.env.master` holds"


def main():
    env = initialize()
    if env.master:
        dist.barrier()  # want CV301 "barrier .* runs only when `env.master` holds"
    if env.world_size > 1:
        dist.barrier()
    Trainer(Env()).run()
