# A frozen encoder sharded on one group that the configuration picks: the
# node's group or WORLD. The wrapper is made once and drives that one
# communicator, not a pair.
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

use_intra = os.environ.get("ENC_GROUP") == "1"
pgroup = intra if use_intra else dist.group.WORLD

encoder = FSDP(
    torch.nn.Linear(8, 8).cuda(),
    process_group=pgroup,
    sharding_strategy=ShardingStrategy.FULL_SHARD,
    device_id=torch.cuda.current_device(),
)
loss = encoder(torch.randn(4, 8, device="cuda")).sum()
loss.backward()
