from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy


def build(net):
    return FSDP(net, sharding_strategy=ShardingStrategy.FULL_SHARD)
