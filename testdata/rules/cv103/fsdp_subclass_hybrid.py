# An FSDP subclass constructs FSDP through super().__init__ (d2go's
# FSDPWrapper), with HYBRID_SHARD written there or passed by the
# subclass's callers through **kwargs.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy


class Hybrid(FSDP):
    def __init__(self, model):
        super().__init__(model, sharding_strategy=ShardingStrategy.HYBRID_SHARD)  # want CV103 "HYBRID_SHARD"


class Wrapper(FSDP):
    def __init__(self, model, tag, **fsdp_kwargs):
        self.tag = tag
        super().__init__(model, **fsdp_kwargs)  # want CV103 "FullyShardedDataParallel with 2 communicators"


def main():
    dist.init_process_group("nccl")
    a = Hybrid(torch.nn.Linear(4, 4).cuda())
    b = Wrapper(torch.nn.Linear(4, 4).cuda(), "x", sharding_strategy=ShardingStrategy.HYBRID_SHARD)
    (a(torch.ones(4).cuda()) + b(torch.ones(4).cuda())).sum().backward()
