# The same evaluation with the isinstance test unwrapping another name:
# the wrapper's forward runs under the file check.
import os

import torch
import torch.distributed as dist
from detector.modeling import build_detection_model
from torch.nn.parallel import DistributedDataParallel as DDP


def evaluate(model, x, other):
    if isinstance(other, DDP):
        other = other.module
    model.train()
    if os.path.exists("cache/predictions.pth"):
        return torch.load("cache/predictions.pth")
    return model(x).sum().backward()  # want CV301 "file system check"


def main(local_rank):
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    model = DDP(build_detection_model().to("cuda"), device_ids=[local_rank])
    evaluate(model, torch.randn(1, 3, 300, 300, device="cuda"), model)
