# Before each outer all-reduce every rank asks a FileStore whether a
# sidecar process has set a rejoin flag yet (diloco-vs-ddp-failures):
# each rank asks at its own moment, so some re-create the process group
# while others already wait in the old group's all-reduce.
import sys

import torch
import torch.distributed as dist


class ControlStore:
    def __init__(self, path, world_size):
        self.store = dist.FileStore(path, world_size + 1)

    def rejoin_pending(self):
        if not self.store.check(["rejoin_pending"]):
            return 0
        return int(self.store.get("rejoin_pending").decode())


def main():
    dist.init_process_group("nccl")
    store = ControlStore(sys.argv[1], dist.get_world_size())
    delta = torch.zeros(1024, device="cuda")
    for outer in range(1000):
        if store.rejoin_pending():
            dist.destroy_process_group()  # want CV301 "at its own moment"
            dist.init_process_group("nccl")
        dist.all_reduce(delta)


def agreed(store, delta):
    # Rank 0 asks and broadcasts the answer: every rank acts on the same.
    for outer in range(1000):
        flag = [store.store.check(["rejoin_pending"]) if dist.get_rank() == 0 else None]
        dist.broadcast_object_list(flag, src=0)
        if flag[0]:
            dist.destroy_process_group()
            dist.init_process_group("nccl")
        dist.all_reduce(delta)
