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


def bound_then_bound_again(proc_id, world_size):
    # Bound before the group; the later set_device binds the same device
    # again after DDP (OCC-GNN's worker).
    torch.cuda.set_device(proc_id)
    dist.init_process_group(backend="nccl", world_size=world_size, rank=proc_id)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(8, 8).to(proc_id), device_ids=[proc_id])
    torch.cuda.set_device(proc_id)
    return model
