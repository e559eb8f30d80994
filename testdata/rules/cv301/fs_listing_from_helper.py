# The chunk list comes from a helper that lists this host's cache
# directory: a loader over it holds a different number of batches on
# hosts that see different chunks (node-local caches, a lagging network
# file system), and the rank with more waits in the gather
# (Language-Model-SAEs' cached activations).
from pathlib import Path

import torch.distributed as dist
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def list_chunks(cache_dir):
    if not Path(cache_dir).is_dir():
        return []
    return sorted(Path(cache_dir).glob("shard-*-chunk-*.pt"))


def stream(cache_dir):
    chunks = list_chunks(cache_dir)
    loader = DataLoader(chunks, batch_size=1, sampler=DistributedSampler(chunks, shuffle=False))
    for path in loader:
        gathered = [None] * dist.get_world_size()
        dist.all_gather_object(gathered, str(path))  # want CV301 "once per element of `loader`, whose bounds depend on a file system check"
        yield from gathered
