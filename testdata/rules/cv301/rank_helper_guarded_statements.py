# A rank getter of the program's own, written as statements that fall
# back to 0 when torch.distributed is not initialised (AngelSlim's
# _rank()), is the rank wherever it is called; so is an attribute read
# with getattr and a constant name (SimpleTuner's save hooks).
import torch
import torch.distributed as dist


def _rank() -> int:
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank()
    return 0


def _node_rank():
    """The rank, or 0 outside a distributed run."""
    if not dist.is_initialized():
        return 0
    return dist.get_rank()


def broadcast_into(src, target):
    if _rank() == 0:
        if src is None or src.shape != target.shape:
            return False
        tmp = src.to(target.device)
    else:
        tmp = torch.empty_like(target)
    dist.broadcast(tmp, src=0)  # want CV301 "runs only on the ranks that do not leave early"
    target.copy_(tmp)
    return True


def save(t):
    if _node_rank() == 0:
        dist.all_reduce(t)  # want CV301 "runs only when `_node_rank\(\) == 0` holds"


class Hooks:
    def __init__(self, accelerator):
        self.accelerator = accelerator

    def save_model_hook(self, t):
        if getattr(self.accelerator, "is_main_process", True):
            dist.all_reduce(t)  # want CV301 "runs only when `getattr\(self.accelerator, \"is_main_process\", True\)` holds"
        dist.barrier()
