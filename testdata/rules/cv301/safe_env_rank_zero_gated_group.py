# A weight-update group made only where the launcher's environment says
# this is global rank 0 (NODE_RANK and LOCAL_RANK both "0", or RANK "0"),
# used only under dist.get_rank() == 0: the same process (compose-rl's
# vLLM weight sync).
import os

import torch
import torch.distributed as dist
from torch.distributed.distributed_c10d import Backend, PrefixStore, _new_process_group_helper, rendezvous


def init_process_group(backend, init_method, world_size, rank, group_name):
    store, rank, world_size = next(rendezvous(init_method, rank, world_size))
    store = PrefixStore(group_name, store)
    pg, _ = _new_process_group_helper(world_size, rank, [], Backend(backend), store, group_name=group_name)
    return pg


class Trainer:
    def __init__(self, model):
        self.model = model
        self.update_group = None
        self.other_group = None

    def setup(self):
        if os.getenv("NODE_RANK", None) == "0" and os.getenv("LOCAL_RANK", None) == "0":
            self.update_group = init_process_group("nccl", "tcp://127.0.0.1:29555", 3, 0, "weight-sync")
        if int(os.environ["RANK"]) == 0:
            self.other_group = init_process_group("nccl", "tcp://127.0.0.1:29556", 3, 0, "other")
        dist.barrier()

    def push_weights(self):
        for p in self.model.parameters():
            if dist.get_rank() == 0:
                dist.broadcast(p.data, 0, group=self.update_group)
                dist.broadcast(p.data, 0, group=self.other_group)
        dist.barrier()
