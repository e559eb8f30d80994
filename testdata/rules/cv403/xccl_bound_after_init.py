# oneCCL binds the device when the group is created (saforem2/ezpz PR #149).
import os

import torch
import torch.distributed as dist


def setup():
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group(backend="xccl")  # want CV403 "created on \"xccl\" without device_id"
    torch.xpu.set_device(local_rank)
    return local_rank
