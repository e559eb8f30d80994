# Rank tests stored on the instance that every member of the group
# answers alike, and groups that only the ranks passing the test create.
import os

import torch
import torch.distributed as dist
from megatron.core import parallel_state as mpu
from torch.distributed.distributed_c10d import _new_process_group_helper
from torch.nn.parallel import DistributedDataParallel as DDP


def init_custom_process_group(world_size, rank, store, group_name):
    # The RL trainers' weight-update group: this rank and an inference
    # server's workers meet at the store; no other trainer rank joins.
    pg, _ = _new_process_group_helper(world_size, rank, [], "nccl", store, group_name=group_name)
    return pg


class Engine:
    def __init__(self):
        self.is_tp_head = mpu.get_tensor_model_parallel_rank() == 0
        self.is_src = mpu.get_data_parallel_rank() == 0 and mpu.get_tensor_model_parallel_rank() == 0
        self.update_group = None

    def log_loss(self, loss):
        # Every rank of a data-parallel group has the same tensor-parallel rank.
        if self.is_tp_head:
            dist.all_reduce(loss, group=mpu.get_data_parallel_group())

    def connect(self, n, store):
        if self.is_src:
            self.update_group = init_custom_process_group(n + 1, 0, store, "weights")

    def _collect(self, p):
        parts = [torch.empty_like(p) for _ in range(mpu.get_tensor_model_parallel_world_size())]
        dist.all_gather(parts, p, group=mpu.get_tensor_model_parallel_group())
        return torch.cat(parts)

    def push(self, params):
        for p in params:
            full = self._collect(p)  # every tensor-parallel rank gathers
            if not self.is_src:
                continue
            dist.broadcast(full, 0, group=self.update_group)

    def disconnect(self):
        if self.is_src:
            dist.destroy_process_group(self.update_group)


class Trainer:
    def setup(self):
        # Whether the job runs distributed at all: every rank agrees.
        self.ddp = int(os.environ.get("RANK", -1)) != -1
        if self.ddp:
            dist.init_process_group("nccl")

    def wrap(self, model):
        if self.ddp:
            model = DDP(model)
        return model

