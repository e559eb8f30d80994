# The module's layers come from a helper that makes a BatchNorm, or from
# a class handed to the constructor (MoCo's base_encoder, a torchvision
# ResNet): either may hold buffers, which DDP's no-grad forward on rank 0
# alone broadcasts.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def conv_bn(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout))


class FromHelper(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = conv_bn(4, 4)

    def forward(self, x):
        return self.block(x)


class FromHandedClass(nn.Module):
    def __init__(self, base_encoder):
        super().__init__()
        self.encoder = base_encoder(num_classes=4)

    def forward(self, x):
        return self.encoder(x)


def validate(model):
    model.eval()
    with torch.no_grad():
        model(torch.randn(2, 4, 8, 8, device="cuda"))
    model.train()


def validate_encoder(model):
    model.eval()
    with torch.no_grad():
        model(torch.randn(2, 4, 8, 8, device="cuda"))
    model.train()


def main(local_rank, arch):
    dist.init_process_group("nccl")
    a = DDP(FromHelper().cuda(), device_ids=[local_rank])
    b = DDP(FromHandedClass(arch).cuda(), device_ids=[local_rank])
    for step in range(10):
        a(torch.randn(2, 4, 8, 8, device="cuda")).sum().backward()
        if dist.get_rank() == 0:
            validate(a)  # want CV301 "forward"
    for step in range(10):
        b(torch.randn(2, 4, 8, 8, device="cuda")).sum().backward()
        if dist.get_rank() == 0:
            validate_encoder(b)  # want CV301 "forward"
