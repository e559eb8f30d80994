# The same indirections on one communicator: no hybrid sharding.
import torch.distributed as dist
from torch.distributed import DeviceMesh
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy
from torch.distributed.fsdp import fully_shard


def wrap_strategy(module, pg, reshard):
    if reshard:
        strategy = ShardingStrategy.FULL_SHARD
    else:
        strategy = ShardingStrategy.SHARD_GRAD_OP
    return FSDP(module, process_group=pg, sharding_strategy=strategy)


def from_group(model):
    intra = dist.new_group([0, 1, 2, 3])
    fully_shard(model, mesh=DeviceMesh.from_group(intra, "cuda"))


def slice_1d(model):
    mesh = init_device_mesh("cuda", (2, 4), mesh_dim_names=("dp_replicate", "dp_shard"))
    fully_shard(model, mesh=mesh["dp_shard"])


def mesh_kwargs(model):
    cfg = dict(mesh=init_device_mesh("cuda", (8,)), reshard_after_forward=True)
    fully_shard(model, **cfg)


dist.init_process_group("nccl")
