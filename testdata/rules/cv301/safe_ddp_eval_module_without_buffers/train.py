# Rank 0 alone validates through the DDP-wrapped generator under
# no_grad, but the module registers no buffers (convolutions,
# InstanceNorm without running statistics, PReLU; MP-SENet): DDP's
# forward has nothing to broadcast, and no collective runs there.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Block(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)
        self.norm = nn.InstanceNorm2d(ch, affine=True)
        self.act = nn.PReLU(ch)

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class Gen(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Conv2d(2, 16, 3, padding=1)
        self.blocks = nn.Sequential(*[Block(16) for _ in range(2)])

    def forward(self, x):
        return self.blocks(self.inp(x))


def train(rank, world):
    dist.init_process_group("nccl", rank=rank, world_size=world)
    gen = DDP(Gen().cuda(rank), device_ids=[rank])
    opt = torch.optim.AdamW(gen.parameters())
    for step in range(100):
        loss = gen(torch.randn(4, 2, 8, 8, device=rank)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0 and step % 10 == 0:
            with torch.no_grad():
                gen(torch.randn(1, 2, 8, 8, device=rank))
