# Helpers of the same statement shape that return what every rank holds
# alike (the world size, a flag) are no rank; nor is a getattr of an
# attribute that is no rank test.
import torch.distributed as dist


def _world() -> int:
    if dist.is_available() and dist.is_initialized():
        return dist.get_world_size()
    return 1


def _ready():
    if not dist.is_initialized():
        return 0
    return 1


def step(t, cfg):
    if _world() > 1:
        dist.all_reduce(t)
    if _ready() == 1:
        dist.barrier()
    if getattr(cfg, "sync_grads", True):
        dist.all_reduce(t)
