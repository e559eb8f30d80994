"""A backbone and an action head, each wrapped in DistributedDataParallel.

The head is called through `.module`, past its wrapper: DDP arms its
gradient all-reduce in its own forward only, so the head's gradients
never leave the rank that computed them, and the copies of the head on
the ranks drift apart with no error (openvla-oft#160). Calling the
wrapper, as `finetune_fixed` does, is the fix.
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class ActionHead(nn.Module):
    def __init__(self, dim=16, actions=7):
        super().__init__()
        self.fc = nn.Linear(dim, actions)

    def forward(self, h):
        return self.fc(h)


def finetune(backbone, loader, device):
    vla = DDP(backbone.to(device), device_ids=[device])
    head = DDP(ActionHead().to(device), device_ids=[device])
    opt = torch.optim.AdamW(list(vla.parameters()) + list(head.parameters()), lr=1e-4)
    for x, y in loader:
        pred = head.module(vla(x))
        loss = nn.functional.l1_loss(pred, y)
        loss.backward()
        opt.step()
        opt.zero_grad()


def finetune_fixed(backbone, loader, device):
    vla = DDP(backbone.to(device), device_ids=[device])
    head = DDP(ActionHead().to(device), device_ids=[device])
    opt = torch.optim.AdamW(list(vla.parameters()) + list(head.parameters()), lr=1e-4)
    for x, y in loader:
        pred = head(vla(x))
        loss = nn.functional.l1_loss(pred, y)
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    data = [(torch.randn(8, 16, device="cuda"), torch.randn(8, 7, device="cuda"))]
    finetune(nn.Linear(16, 16), data, local_rank)
    finetune_fixed(nn.Linear(16, 16), data, local_rank)
