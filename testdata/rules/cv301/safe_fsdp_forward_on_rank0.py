# Every rank runs the FSDP forward; rank 0 alone only prints. A plain
# module (or the unwrapped one under DDP) communicates nothing.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def sample(net, prompt):
    model = FSDP(net)
    with torch.no_grad():
        out = model(prompt)
    if dist.get_rank() == 0:
        print(out)


def local_sample(net, ema, prompt):
    model = FSDP(net)
    model(prompt)
    if dist.get_rank() == 0:
        print(ema(prompt))
