# One helper wraps the encoder on the node's group and the decoder on
# WORLD: the same wrapping site drives two communicators in one backward.
import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy

dist.init_process_group("nccl")
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
local_ws = int(os.environ["LOCAL_WORLD_SIZE"])
node = dist.get_rank() // local_ws
intra = None
for i in range(dist.get_world_size() // local_ws):
    g = dist.new_group(list(range(i * local_ws, (i + 1) * local_ws)))
    if i == node:
        intra = g


def wrap(module, pg):
    return FSDP(module.cuda(), process_group=pg, sharding_strategy=ShardingStrategy.FULL_SHARD)  # want CV103 "2 communicators"


encoder = wrap(torch.nn.Linear(8, 8), intra)
decoder = wrap(torch.nn.Linear(8, 8), dist.group.WORLD)
loss = decoder(encoder(torch.randn(4, 8, device="cuda"))).sum()
loss.backward()
