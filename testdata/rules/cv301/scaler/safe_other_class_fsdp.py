# One file, two trainers: the FSDP one shards its model's gradients, the
# single-process one steps a plain module's optimizer. Its GradScaler
# sees whole gradients; only the FSDP trainer's scaler is reported
# (minChatGPT's trainers).
import torch
from torch.cuda.amp import GradScaler
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class SingleGPUTrainer:
    def __init__(self, model):
        self.model = model.cuda()
        self.opt = torch.optim.Adam(self.model.parameters())

    def fit(self, loader):
        scaler = GradScaler()
        for x in loader:
            loss = self.model(x.cuda()).sum()
            scaler.scale(loss).backward()
            scaler.step(self.opt)
            scaler.update()


class FSDPTrainer:
    def __init__(self, model):
        self.model = model
        self.scaler = GradScaler()

    def fit(self, loader):
        dist_model = FSDP(self.model)
        self.optimizer = torch.optim.Adam(dist_model.parameters())
        for x in loader:
            loss = dist_model(x.cuda()).sum()
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)  # want CV301 "`self.scaler.step` checks only the gradients"
            self.scaler.update()
