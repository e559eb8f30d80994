# A module whose __all__ lists one of its two rank names.
import torch.distributed as dist

__all__ = ["IS_LEADER"]

IS_LEADER = dist.get_rank() == 0
IS_FIRST = dist.get_rank() == 0
