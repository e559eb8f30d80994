# The fix: backward runs on the thread that calls it, so both
# communicators are driven from one thread in one order.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.parallel import ColwiseParallel, parallelize_module


def build(model, world):
    dist.init_process_group("nccl")
    torch.autograd.set_multithreading_enabled(False)
    mesh = init_device_mesh("cuda", (world // 4, 4), mesh_dim_names=("dp", "tp"))
    parallelize_module(model, mesh["tp"], {"up": ColwiseParallel()})
    fully_shard(model, mesh=mesh["dp"])
    return model
