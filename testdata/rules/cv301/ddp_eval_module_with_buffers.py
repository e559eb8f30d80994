# The same validation with modules that hold buffers: BatchNorm's
# running statistics, register_buffer, InstanceNorm tracking running
# statistics. DDP's first no-grad forward broadcasts them from rank 0,
# which the other ranks never join.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class WithBatchNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 16, 3, padding=1)
        self.norm = nn.BatchNorm2d(16)

    def forward(self, x):
        return self.norm(self.conv(x))


class WithBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.register_buffer("scale", torch.ones(8))

    def forward(self, x):
        return self.proj(x) * self.scale


class WithTrackedInstanceNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.InstanceNorm1d(8, track_running_stats=True)

    def forward(self, x):
        return self.norm(x)


def validate(model_cls):
    rank = dist.get_rank()
    model = DDP(model_cls().cuda(rank), device_ids=[rank])
    if rank == 0:
        with torch.no_grad():
            model(torch.randn(1, 2, 8, 8, device=rank))  # want CV301 "forward"


def main():
    dist.init_process_group("nccl")
    validate(WithBatchNorm)
    validate(WithBuffer)
    validate(WithTrackedInstanceNorm)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.utils.spectral_norm(nn.Linear(8, 8)), nn.PReLU(8))

    def forward(self, x):
        return self.layers(x)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.act = nn.PReLU(8)

    def forward(self, x):
        return self.act(self.proj(x))


def train_gan(x):
    # Two wrappers in one program: the generator holds no buffers, so its
    # rank-0 forward is silent; the discriminator's spectral_norm keeps
    # its power-iteration vectors in buffers (MP-SENet's pair).
    rank = dist.get_rank()
    generator = Generator().cuda(rank)
    generator = DDP(generator, device_ids=[rank]).cuda(rank)
    discriminator = DDP(Discriminator().cuda(rank), device_ids=[rank])
    if rank == 0:
        with torch.no_grad():
            generator(x)
    if rank == 0:
        with torch.no_grad():
            discriminator(x)  # want CV301 "forward"


def rebound():
    # The name rebound to its own wrapper still wraps a BatchNorm model.
    rank = dist.get_rank()
    model = WithBatchNorm().cuda()
    model = DDP(model, device_ids=[rank])
    if rank == 0:
        with torch.no_grad():
            model(torch.randn(1, 2, 8, 8, device=rank))  # want CV301 "forward"
