# FSDP2 on a 1-D mesh with no tensor parallelism: one communicator.
# Tensor parallelism on the same dimension FSDP shards on is one too.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.parallel import ColwiseParallel, parallelize_module


def build(model, world):
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (world,), mesh_dim_names=("dp",))
    for block in model:
        fully_shard(block, mesh=mesh["dp"])
    fully_shard(model, mesh=mesh["dp"])
    return model


def same_dimension(model, mesh):
    parallelize_module(model, mesh["dp"], {"up": ColwiseParallel()})
    fully_shard(model, mesh=mesh["dp"])
    return model
