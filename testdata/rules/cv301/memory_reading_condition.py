# A condition on this rank's memory use: each rank's caching allocator
# holds its own amounts, so only some ranks take the branch.
import torch
import torch.distributed as dist


def maybe_sync(device):
    r = torch.cuda.memory_reserved(device)
    a = torch.cuda.memory_allocated(device)
    if (r - a) / 1024 < 100:
        torch.cuda.empty_cache()
        dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) depends on .*this rank's memory use"


def free_bytes_gate(t):
    free = torch.cuda.mem_get_info()[0]
    if free < 1 << 30:
        dist.all_reduce(t)  # want CV301 "all_reduce .*this rank's memory use"
    return t
