# The arm where none of the launcher's variables is set runs in a
# process that env:// cannot join to a job: an init there with no
# rendezvous of its own raises, so a device-count test in that arm
# splits no job.
import os

import torch
import torch.distributed as dist


def setup_distributed():
    if "RANK" in os.environ or "WORLD_SIZE" in os.environ:
        dist.init_process_group(backend="nccl")
        return True
    elif torch.cuda.device_count() >= 2:
        dist.init_process_group(backend="nccl")
        return True
    return False


def setup_all_set():
    if "MASTER_ADDR" in os.environ and "RANK" in os.environ:
        dist.init_process_group("nccl")
        return True
    else:
        if torch.cuda.device_count() > 1:
            dist.init_process_group("nccl", timeout=None)
            return True
    return False
