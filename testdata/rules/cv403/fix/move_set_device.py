import os

import torch
import torch.distributed as dist


def setup():
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group(backend="xccl")
    torch.xpu.set_device(local_rank)
    return local_rank
