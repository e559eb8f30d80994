import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy

dist.init_process_group("nccl")
torch.autograd.set_multithreading_enabled(False)


def build(net):
    return FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD)
