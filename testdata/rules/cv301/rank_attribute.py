# A rank test stored on the instance in one method and read in another:
# directly, through an accessor, from a base class, or as an and of two
# rank tests. Only the ranks where it holds issue the collective.
import time

import torch
import torch.distributed as dist
from megatron.core import parallel_state as mpu


class Engine:
    def __init__(self):
        self.is_head = dist.get_rank() == 0
        self.is_pp_head = mpu.get_data_parallel_rank() == 0 and mpu.get_tensor_model_parallel_rank() == 0

    def is_pipeline_parallel_head(self):
        return self.is_pp_head

    def update(self, t):
        if self.is_head:
            dist.all_reduce(t)  # want CV301 "runs only when `self.is_head` holds"

    def _collect(self, p):
        parts = [torch.empty_like(p) for _ in range(mpu.get_tensor_model_parallel_world_size())]
        dist.all_gather(parts, p, group=mpu.get_tensor_model_parallel_group())
        return torch.cat(parts)

    def push(self, params):
        if self.is_pipeline_parallel_head():
            for p in params:
                print(self._collect(p).shape)  # want CV301 "all_gather.*runs only when `self.is_pipeline_parallel_head\(\)` holds"


class Worker(Engine):
    def step(self, t):
        if not self.is_head:
            return
        dist.broadcast(t, 0)  # want CV301 "do not leave early"


def patched_push(self: "Engine", params):
    # A monkey patch installed on Engine: self is an Engine.
    if self.is_pipeline_parallel_head():
        for p in params:
            print(self._collect(p).shape)  # want CV301 "all_gather"


def install():
    Engine.push = patched_push


class Updater:
    def __init__(self):
        self.ready = True
        self.head = dist.get_rank() == 0

    def is_head(self):
        assert self.ready
        return self.head

    def push(self, t):
        if not self.is_head():
            return
        dist.broadcast(t, 0)  # want CV301 "`not self.is_head\(\)`"


def evaluate_timed():
    start = time.time()
    return {"acc": 1.0, "elapse": time.time() - start}


def log_slow(step):
    info = evaluate_timed()
    if info and info["elapse"] > 5.0:
        dist.all_reduce(torch.zeros(1))  # want CV301 "reads the clock"
