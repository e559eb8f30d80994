import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up = torch.nn.Linear(4096, 16384)
        self.down = torch.nn.Linear(16384, 4096)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    world = dist.get_world_size()
    mesh = init_device_mesh("cuda", (world // 4, 4), mesh_dim_names=("dp", "tp"))
    model = torch.nn.Sequential(*[MLP() for _ in range(4)]).cuda()
    for block in model:
        parallelize_module(block, mesh["tp"], {"up": ColwiseParallel(), "down": RowwiseParallel()})
        fully_shard(block, mesh=mesh["dp"])
    fully_shard(model, mesh=mesh["dp"])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(1000):
        x = torch.randn(8, 4096, device="cuda")
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
