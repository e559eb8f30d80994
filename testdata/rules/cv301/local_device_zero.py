# The first device of each node (omnivore's is_local_primary): only those
# processes reach the barrier.
import torch
import torch.distributed as dist


def is_local_primary():
    return torch.cuda.current_device() == 0


def save(t):
    if is_local_primary():
        dist.barrier()  # want CV301 "runs only when `is_local_primary\(\)` holds"
