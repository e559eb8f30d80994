import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard


def setup():
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group(backend="xccl")
    torch.xpu.set_device(local_rank)
    return local_rank


def main():
    setup()
    mesh = init_device_mesh("xpu", (dist.get_world_size(),))
    model = torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.Linear(1024, 1024)).to("xpu")
    fully_shard(model, mesh=mesh)
    out = model(torch.randn(8, 1024, device="xpu"))
    out.sum().backward()


if __name__ == "__main__":
    main()
