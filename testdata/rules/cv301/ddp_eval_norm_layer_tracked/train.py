# The same validation with norms that keep running statistics (BatchNorm2d
# by default): DDP's first no-grad forward on rank 0 broadcasts them, and
# the other ranks never join it.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Block(nn.Module):
    def __init__(self, c, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.bn = norm_layer(c, affine=True)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


class FeatNet(nn.Module):
    def __init__(self, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.InstanceNorm2d
        self.block = Block(3, norm_layer)

    def forward(self, x):
        return self.block(x)


class Trainer:
    def __init__(self, local_rank):
        self.local_rank = local_rank
        self.model = DDP(FeatNet().cuda(), device_ids=[local_rank])
        self.opt = torch.optim.Adam(self.model.parameters())

    @torch.no_grad()
    def validate(self):
        return self.model(torch.randn(1, 3, 16, 16, device="cuda"))

    def train(self):
        for step in range(100):
            loss = self.model(torch.randn(1, 3, 16, 16, device="cuda")).sum()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            if self.local_rank == 0 and step % 10 == 0:
                self.validate()  # want CV301 "local_rank == 0"
