"""FSDP HYBRID_SHARD drives two communicators from two threads.

HYBRID_SHARD shards inside a node (intra-node group) and replicates across
nodes (inter-node group). Its post-backward hooks reduce-scatter on one and
all-reduce on the other from the autograd engine's device thread, while the
main thread all-gathers parameters for the next forward on the same
communicators. collvet reports CV103 here; see hybrid_shard_train_fixed.py.
"""
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy


def train(net, loader, steps):
    dist.init_process_group("nccl")
    model = FSDP(net, sharding_strategy=ShardingStrategy.HYBRID_SHARD, device_id=torch.cuda.current_device())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _, batch in zip(range(steps), loader):
        loss = model(batch).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
