# Two conditions that differ between ranks skip the same backward: a
# NaN test of this rank's loss, and an out-of-memory handler that goes on
# to the next batch. The finding names the first and points at the
# second, so that fixing one does not hide the other.
import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

local_rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local_rank)
dist.init_process_group("nccl")
model = FSDP(torch.nn.Linear(64, 64).cuda(), device_id=local_rank)
opt = torch.optim.AdamW(model.parameters())

for step in range(100):
    x = torch.randn(8, 64, device="cuda")
    try:
        loss = model(x).sum()
        if torch.isnan(loss):
            continue
        loss.backward()  # want CV301 "do not leave early"
        opt.step()
        opt.zero_grad()
    except torch.cuda.OutOfMemoryError:
        opt.zero_grad()
        torch.cuda.empty_cache()
        continue
