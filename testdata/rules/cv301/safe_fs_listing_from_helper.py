# The helper's list is agreed on before it is iterated (rank 0 lists,
# everyone receives), or the helper returns a list it builds from its
# arguments, not from the host's disk.
from pathlib import Path

import torch.distributed as dist
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def list_chunks(cache_dir):
    return sorted(Path(cache_dir).glob("shard-*-chunk-*.pt"))


def chunk_names(n):
    return [f"shard-{i}.pt" for i in range(n)]


def stream_agreed(cache_dir):
    box = [list_chunks(cache_dir) if dist.get_rank() == 0 else None]
    dist.broadcast_object_list(box, src=0)
    chunks = box[0]
    loader = DataLoader(chunks, batch_size=1, sampler=DistributedSampler(chunks, shuffle=False))
    for path in loader:
        gathered = [None] * dist.get_world_size()
        dist.all_gather_object(gathered, str(path))


def stream_named(n):
    chunks = chunk_names(n)
    loader = DataLoader(chunks, batch_size=1, sampler=DistributedSampler(chunks, shuffle=False))
    for path in loader:
        gathered = [None] * dist.get_world_size()
        dist.all_gather_object(gathered, str(path))
