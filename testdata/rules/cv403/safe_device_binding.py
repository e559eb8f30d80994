# The device bound in time: before the init, through device_id, or (NCCL)
# right after it with nothing in between; gloo has no device.
import os

import torch
import torch.distributed as dist


def set_first(local_rank):
    torch.xpu.set_device(local_rank)
    dist.init_process_group(backend="xccl")


def device_id(local_rank):
    dist.init_process_group(backend="xccl", device_id=torch.device("xpu", local_rank))
    torch.xpu.set_device(local_rank)


def nccl_then_set():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.barrier()


def gloo(local_rank):
    dist.init_process_group("gloo")
    dist.barrier()
    torch.cuda.set_device(local_rank)
