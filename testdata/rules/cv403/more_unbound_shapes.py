# More shapes: DDP's constructor broadcast, an all_reduce, accelerator
# index binding, a mixed backend string naming oneCCL.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def ddp_before_binding(model, local_rank):
    dist.init_process_group(backend="nccl")  # want CV403 "DistributedDataParallel|ddp"
    model = DDP(model.cuda())
    torch.cuda.set_device(local_rank)
    return model


def all_reduce_before_binding(local_rank):
    dist.init_process_group("nccl")  # want CV403 "all_reduce at"
    flag = torch.ones(1, device="cuda")
    dist.all_reduce(flag)
    torch.cuda.set_device(local_rank)


def accelerator_index(local_rank):
    dist.init_process_group("xccl")  # want CV403 "oneCCL"
    torch.accelerator.set_device_index(local_rank)


def mixed_backend(local_rank):
    dist.init_process_group(backend="cpu:gloo,xpu:xccl")  # want CV403 "cpu:gloo,xpu:xccl"
    torch.xpu.set_device(local_rank)


def ddp_device_ids_zero(model, local_rank):
    dist.init_process_group(backend="nccl")  # want CV403 "DistributedDataParallel|ddp"
    model = DDP(model.cuda(), device_ids=[0])
    torch.cuda.set_device(local_rank)
