# A1 (ROCm/rccl#1600): HYBRID_SHARD's intra- and inter-node groups are driven
# from the autograd thread and the main thread.
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy

dist.init_process_group("nccl")


def build(net):
    return FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD)  # want CV103 "HYBRID_SHARD|2 communicators"
