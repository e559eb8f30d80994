# The Thread class reaches the launch through a dataclass field set by a
# factory (chameleon's worker_launcher in its THREAD mode): every worker
# thread issues the default group's collectives.
import threading
from dataclasses import dataclass

import torch.distributed as dist
import torch.multiprocessing as mp


@dataclass
class Ctx:
    launcher: type

    @staticmethod
    def make(use_threads: bool):
        if use_threads:
            return Ctx(launcher=threading.Thread)
        return Ctx(launcher=mp.get_context("spawn").Process)


def worker(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    while True:
        req = [None]
        dist.broadcast_object_list(req, src=0)  # want CV101 "broadcast_object_list on the default group \(WORLD\) is issued from"
        if req[0] is None:
            break


def start(world_size, use_threads):
    ctx = Ctx.make(use_threads)
    workers = [ctx.launcher(target=worker, args=(i, world_size), daemon=True) for i in range(world_size)]
    for w in workers:
        w.start()
