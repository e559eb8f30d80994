# Two loops bind the same local name to their groups (intra-node groups,
# then inter-node groups); each global keeps only its own loop's group.
# FSDP gets the intra-node group alone: one communicator, nothing to
# order between threads (Lumina-T2X's parallel.py).
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy

_INTRA, _INTER = None, None


def init(local_rank, local_ws):
    global _INTRA, _INTER
    dist.init_process_group("nccl")
    ws = dist.get_world_size()
    for start in range(0, ws, local_ws):
        group = dist.new_group(list(range(start, start + local_ws)))
        if dist.get_rank() in range(start, start + local_ws):
            _INTRA = group
    for i in range(local_ws):
        group = dist.new_group(list(range(i, ws, local_ws)))
        if i == local_rank:
            _INTER = group


def main(net, x, y):
    init(0, 8)
    enc = FSDP(net, process_group=_INTRA, sharding_strategy=ShardingStrategy.FULL_SHARD)
    loss = enc(x).sum()
    loss.backward()
    dist.all_reduce(y, group=_INTER)
