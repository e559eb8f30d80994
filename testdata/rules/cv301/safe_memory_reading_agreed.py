# Memory readings that decide only local work, or that every rank agrees
# on first (an all-reduced maximum).
import torch
import torch.distributed as dist


def log_memory(step):
    used = torch.cuda.memory_allocated()
    if used > 1 << 30:
        torch.cuda.empty_cache()
    dist.barrier()
    return used


def agreed(t):
    used = torch.tensor([torch.cuda.memory_allocated()], device="cuda")
    dist.all_reduce(used, op=dist.ReduceOp.MAX)
    if used.item() > 1 << 30:
        dist.all_reduce(t)
    return t
