# The dataclass field only ever holds a process class: each worker is a
# process of its own (thread_class_in_dataclass_field.py holds Thread).
from dataclasses import dataclass

import torch.distributed as dist
import torch.multiprocessing as mp


@dataclass
class Ctx:
    launcher: type

    @staticmethod
    def make():
        return Ctx(launcher=mp.get_context("spawn").Process)


def worker(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    req = [None]
    dist.broadcast_object_list(req, src=0)


def start(world_size):
    ctx = Ctx.make()
    workers = [ctx.launcher(target=worker, args=(i, world_size), daemon=True) for i in range(world_size)]
    for w in workers:
        w.start()
