# M6 (ROCm/rccl#2191): FSDP2 on the data-parallel dimension of a 2-D mesh
# and tensor parallelism on the other. The backward hooks drive the
# data-parallel communicator and DTensor's backward the tensor-parallel
# one on the autograd engine's thread, while the forward drives both on
# the main thread.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module


def build(model, world):
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (world // 4, 4), mesh_dim_names=("dp", "tp"))
    for block in model:
        parallelize_module(block, mesh["tp"], {"up": ColwiseParallel(), "down": RowwiseParallel()})
        fully_shard(block, mesh=mesh["dp"])  # want CV103 "mesh=mesh\[\"dp\"\] and parallelize_module on mesh\[\"tp\"\].*data- and tensor-parallel"
    fully_shard(model, mesh=mesh["dp"])
    return model
