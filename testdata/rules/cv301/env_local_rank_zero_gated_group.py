# LOCAL_RANK "0" alone holds on the first process of every node: a group
# made there has one member per node, and rank 0 alone using it leaves the
# other nodes' members waiting.
import os

import torch.distributed as dist
from torch.distributed.distributed_c10d import Backend, PrefixStore, _new_process_group_helper, rendezvous


def init_process_group(backend, init_method, world_size, rank, group_name):
    store, rank, world_size = next(rendezvous(init_method, rank, world_size))
    pg, _ = _new_process_group_helper(world_size, rank, [], Backend(backend), PrefixStore(group_name, store), group_name=group_name)
    return pg


class Trainer:
    def __init__(self, model):
        self.model = model
        self.update_group = None

    def setup(self):
        if os.getenv("LOCAL_RANK") == "0":
            self.update_group = init_process_group("nccl", "tcp://127.0.0.1:29555", 3, 0, "weight-sync")

    def push_weights(self):
        for p in self.model.parameters():
            if dist.get_rank() == 0:
                dist.broadcast(p.data, 0, group=self.update_group)  # want CV301 "runs only when `dist.get_rank\(\) == 0`"
