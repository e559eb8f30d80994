# A context manager that runs its block on rank 0 before a barrier and on
# the other ranks after it ("main process first"): a collective inside the
# block is issued on opposite sides of that barrier. (LambdaLabs'
# DeepSpeed guide builds a ZeRO-3 model, which broadcasts, in one.)
from contextlib import contextmanager

import deepspeed
import torch
import torch.distributed as dist
from accelerate import Accelerator


@contextmanager
def rank0_first():
    rank = dist.get_rank()
    if rank == 0:
        yield
    dist.barrier()
    if rank > 0:
        yield
    dist.barrier()


@contextmanager
def torch_distributed_zero_first(local_rank):
    if local_rank not in [-1, 0]:
        dist.barrier(device_ids=[local_rank])
    yield
    if local_rank == 0:
        dist.barrier(device_ids=[0])


def build():
    with rank0_first():
        with deepspeed.zero.Init(remote_device="cpu"):  # want CV301 "Init on .* runs inside `with rank0_first\(\):`"
            model = torch.nn.Linear(1024, 1024)
    return model


def check(t, local_rank):
    with torch_distributed_zero_first(local_rank):
        dist.all_reduce(t)  # want CV301 "inside `with torch_distributed_zero_first\(local_rank\):`"


def prepare(t):
    accelerator = Accelerator()
    with accelerator.main_process_first():
        dist.broadcast(t, 0)  # want CV301 "inside `with accelerator.main_process_first\(\):`"


def barrier_on_a_group(path, group):
    # A barrier on another group does not meet the turn's barrier.
    with torch_distributed_zero_first(0):
        data = open(path).read()
        dist.barrier(group=group)  # want CV301 "barrier .*runs inside"
    return data
