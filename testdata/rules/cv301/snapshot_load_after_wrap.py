# Loading after the wrap, in __init__ or in a method a later step calls,
# is FSDP's load_state_dict, which only the ranks that saw the file
# reach.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class Trainer:
    def __init__(self, model, path):
        self.model = FSDP(model, device_id=torch.cuda.current_device())
        if os.path.exists(path):
            self.model.load_state_dict(torch.load(path))  # want CV301 "load_state_dict"

    def reload(self, path):
        if os.path.exists(path):
            self._load(path)  # want CV301 "load_state_dict"

    def _load(self, path):
        self.model.load_state_dict(torch.load(path))


def main():
    dist.init_process_group("nccl")
    t = Trainer(nn.Linear(8, 8), "snap.pt")
    t.reload("snap.pt")
