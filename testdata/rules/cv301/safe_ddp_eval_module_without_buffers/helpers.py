# Module helpers that make no buffers: a conv factory, and tensor math a
# forward calls (IBRNet's conv3x3 and fused_mean_variance). DDP's no-grad
# forward of such a module on rank 0 alone broadcasts nothing.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def conv3x3(cin, cout):
    return nn.Conv2d(cin, cout, 3, padding=1)


def mean_variance(x, weight):
    mean = torch.sum(x * weight, dim=-1, keepdim=True)
    var = torch.sum(weight * (x - mean) ** 2, dim=-1, keepdim=True)
    return mean, var


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = conv3x3(4, 4)
        self.norm = nn.InstanceNorm2d(4, track_running_stats=False, affine=True)

    def forward(self, x):
        mean, var = mean_variance(x, torch.ones_like(x))
        return self.norm(self.conv(x - mean)) * var


def main(local_rank):
    dist.init_process_group("nccl")
    model = DDP(Net().cuda(), device_ids=[local_rank])
    opt = torch.optim.Adam(model.parameters())
    for step in range(100):
        loss = model(torch.randn(2, 4, 8, 8, device="cuda")).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if dist.get_rank() == 0:
            model.eval()
            with torch.no_grad():
                model(torch.randn(2, 4, 8, 8, device="cuda"))
            model.train()
