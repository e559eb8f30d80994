# An FSDP subclass whose callers pass FULL_SHARD: one communicator.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy


class Wrapper(FSDP):
    def __init__(self, model, tag, **fsdp_kwargs):
        self.tag = tag
        super().__init__(model, **fsdp_kwargs)


def main():
    dist.init_process_group("nccl")
    m = Wrapper(torch.nn.Linear(4, 4).cuda(), "x", sharding_strategy=ShardingStrategy.FULL_SHARD)
    m(torch.ones(4).cuda()).sum().backward()
