"""Process-group setup on Intel GPUs (oneCCL, "xccl").

collvet reports CV403 on `setup`: the group is created before the rank's
device is bound and without device_id, so oneCCL binds it to the current
device (device 0 on every rank) and FSDP2's first all-gather hangs.
`setup_fixed` binds the device first and passes device_id; it is quiet.
"""
import os

import torch
import torch.distributed as dist


def setup():
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group(backend="xccl")
    torch.xpu.set_device(local_rank)
    return local_rank


def setup_fixed():
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.xpu.set_device(local_rank)
    dist.init_process_group(backend="xccl", device_id=torch.device("xpu", local_rank))
    return local_rank
