# Hybrid sharding that reaches FSDP or fully_shard indirectly: a strategy
# held in a variable, a mesh built from two groups, a 2-D slice of a named
# mesh, a mesh passed through a dict of keyword arguments.
import torch
import torch.distributed as dist
from torch.distributed import DeviceMesh
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy
from torch.distributed.fsdp import fully_shard


def wrap_strategy(module, pgs, multi_node):
    if multi_node:
        strategy = ShardingStrategy.HYBRID_SHARD
    else:
        strategy = ShardingStrategy.FULL_SHARD
    return FSDP(module, process_group=pgs, sharding_strategy=strategy)  # want CV103 "two device communicators"


def wrap_closure(module, pgs, multi_node):
    strategy = ShardingStrategy.HYBRID_SHARD if multi_node else ShardingStrategy.FULL_SHARD

    def wrap(m):
        return FSDP(m, process_group=pgs, sharding_strategy=strategy)  # want CV103 "two device communicators"

    return wrap(module)


def wrap_kwargs(module, pgs):
    cfg = dict(process_group=pgs, sharding_strategy=ShardingStrategy.HYBRID_SHARD)
    return FSDP(module, **cfg)  # want CV103 "two device communicators"


def from_groups(model):
    inter = dist.new_group([0, 4])
    intra = dist.new_group([0, 1, 2, 3])
    mesh = DeviceMesh.from_group([inter, intra], "cuda", torch.arange(8).view(2, 4), mesh_dim_names=("inter", "intra"))
    fully_shard(model, mesh=mesh)  # want CV103 "two device communicators"


def slice_2d(model):
    mesh = init_device_mesh("cuda", (2, 4, 1), mesh_dim_names=("dp_replicate", "dp_shard", "tp"))
    fully_shard(model, mesh=mesh["dp_replicate", "dp_shard"])  # want CV103 "two device communicators"


def mesh_kwargs(model):
    mesh = init_device_mesh("cuda", (2, 4), mesh_dim_names=("replicate", "shard"))
    cfg = dict(mesh=mesh, reshard_after_forward=True)
    fully_shard(model, **cfg)  # want CV103 "two device communicators"


dist.init_process_group("nccl")
