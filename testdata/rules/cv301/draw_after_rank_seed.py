# The hazardous neighbour of safe_reseeded_draw.py: seeded with the rank
# (for data diversity), the permutation differs between ranks, and so
# does whether this step's groups are created.
import torch
import torch.distributed as dist


def setup_groups(step, cache):
    world_size = dist.get_world_size()
    torch.manual_seed(step + dist.get_rank())
    perm = torch.randperm(world_size).tolist()
    key = "_".join(map(str, perm))
    if key not in cache:
        cache[key] = dist.new_group(perm[:2])  # want CV301 "new_group is collective over the default group"
    return cache[key]
