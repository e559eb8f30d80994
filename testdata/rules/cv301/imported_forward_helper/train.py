# SiD-LSG's loop: the DDP forward runs in a helper imported from another
# module, NaN samples are dropped from this rank's batch, and the
# backward (DDP's gradient all-reduce) runs only where samples are left.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from sd_util import denoise


def main():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    net = DDP(torch.nn.Linear(16, 16).cuda(), device_ids=[rank])
    for step in range(100):
        images = torch.randn(1, 16, device="cuda")
        noise = torch.randn_like(images)
        out = denoise(unet=net, images=images, noise=noise)
        keep = ~torch.isnan(out).flatten(start_dim=1).any(dim=1)
        out, noise = out[keep], noise[keep]
        loss = ((out - noise) ** 2).sum()
        if len(noise) > 0:
            loss.backward()  # want CV301 "backward"


def probe(rank):
    # The same helper handed a plain module: its backward reduces nothing.
    plain = torch.nn.Linear(16, 16).cuda()
    images = torch.randn(1, 16, device="cuda")
    out = denoise(unet=plain, images=images, noise=torch.randn_like(images))
    if rank == 0:
        out.sum().backward()
