# A trainer loads its snapshot into the plain module, in __init__ or in
# a method only __init__ calls, before wrapping it with FSDP (the
# tutorials' snapshot loading, with FSDP for DDP): no collective there.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class Trainer:
    def __init__(self, model, path):
        self.model = model
        if os.path.exists(path):
            self._load(path)
        if dist.get_rank() == 0:
            self.model.load_state_dict(torch.load(path))
        self.model = FSDP(self.model, device_id=torch.cuda.current_device(), sync_module_states=True)

    def _load(self, path):
        snap = torch.load(path)
        self.model.load_state_dict(snap["MODEL_STATE"])

    def step(self, x):
        self.model(x).sum().backward()


def main():
    dist.init_process_group("nccl")
    t = Trainer(nn.Linear(8, 8), "snap.pt")
    t.step(torch.randn(2, 8, device="cuda"))
