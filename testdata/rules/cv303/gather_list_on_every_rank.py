# A gather or scatter given its root-only list on every rank: torch checks
# the list before it joins, and every rank but the root raises ValueError
# ("gather_list must NOT be specified on non-destination ranks") while the
# root waits for them (ComfyUI-xDit's gather, its error swallowed).
import torch
import torch.distributed as dist


def gather_frames(frames, world_size):
    gathered = [torch.zeros_like(frames) for _ in range(world_size)]
    dist.gather(frames, gathered, dst=0)  # want CV303 "given its gather_list \(`gathered`\) on every rank"
    return gathered


def gather_swallowed(frames, world_size):
    gathered = [torch.zeros_like(frames) for _ in range(world_size)]
    try:
        dist.gather(frames, gathered, 0)  # want CV303 "every other rank raises ValueError"
    except Exception:
        pass
    return gathered


def scatter_chunks(out, full, world_size):
    dist.scatter(out, [c for c in full.chunk(world_size)], src=0)  # want CV303 "given its scatter_list .* dist.get_rank\(\) == src"


def gather_stats(stats, world_size):
    everyone = [None] * world_size
    dist.gather_object(stats, everyone, dst=0)  # want CV303 "given its object_gather_list \(`everyone`\) on every rank"
    return everyone
