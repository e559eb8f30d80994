# A forward-only parity check of a checkpoint under FSDP2 on a 2-D mesh
# (nai-t5-wrapper's encoder check): the program runs no backward pass, so
# the hooks fully_shard installs for backward never run, and only the
# main thread drives the two communicators.
import os

import torch
import torch.distributed as dist
from torch.distributed._composable.fsdp import fully_shard
from torch.distributed.device_mesh import init_device_mesh


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    mesh = init_device_mesh("cuda", (2, 4), mesh_dim_names=("dp", "fsdp"))
    model = fully_shard(torch.nn.Linear(16, 16).cuda(), mesh=mesh)
    with torch.inference_mode():
        y = model(torch.randn(2, 16, device="cuda"))
    dist.barrier()
    print(y.sum().item())
