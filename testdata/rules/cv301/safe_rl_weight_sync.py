# Rank 0 alone joins a private group with the inference engines and
# broadcasts weights on it, the creation and the use spelling "rank 0"
# differently; a LoRA rank is a model setting; and a record that holds a
# timing among its fields is only asked whether it is empty.
import time

import torch
import torch.distributed as dist
from torch.distributed.distributed_c10d import _new_process_group_helper


def make_group(world_size, rank, store, name):
    pg, _ = _new_process_group_helper(world_size, rank, [], "nccl", store, group_name=name)
    return pg


class Trainer:
    def __init__(self, cfg):
        self.rank = dist.get_rank()
        self.use_lora = cfg.model.lora.rank > 0

    def setup(self, store, world):
        if self.rank == 0:
            self.sync_group = make_group(world, 0, store, "sync")

    def push(self, params):
        for p in params:
            if dist.get_rank() == 0:
                dist.broadcast(p, 0, group=self.sync_group)

    def sync(self, x):
        if self.use_lora:
            return
        dist.all_reduce(x)


def evaluate():
    start = time.time()
    return {"eval/acc": 1.0, "eval/elapse": time.time() - start}


def log(step, do_eval):
    info = {}
    if do_eval:
        info = evaluate()
    if info or step % 10 == 0:
        dist.all_reduce(torch.zeros(1))
