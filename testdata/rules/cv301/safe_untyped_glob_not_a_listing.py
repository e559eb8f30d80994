# A glob method given no wildcard pattern, or an object's own glob-like
# method with other arguments, lists nothing.
import torch.distributed as dist


def main(registry, loader):
    names = registry.glob("layers", strict=True)
    for name in names:
        dist.barrier()
