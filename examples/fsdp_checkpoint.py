"""Saving an FSDP model from rank 0 only.

FullyShardedDataParallel.state_dict() is a collective: it all-gathers the
sharded parameters from every rank. Called under `if rank == 0`, rank 0
waits in the all-gather for ranks that never join it, and the job hangs
at its first checkpoint (after the NCCL timeout, if one is set).
"""

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def train(net, loader, epochs, path):
    dist.init_process_group("nccl")
    model = FSDP(net.cuda())
    optim = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for epoch in range(epochs):
        for batch in loader:
            loss = model(batch.cuda()).mean()
            loss.backward()
            optim.step()
            optim.zero_grad()
        if dist.get_rank() == 0:
            # Every rank must call state_dict(); only the writing belongs here.
            torch.save(model.state_dict(), f"{path}/epoch{epoch}.pt")
    dist.destroy_process_group()
