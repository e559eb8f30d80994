# The trainer's model is wrapped by a module-level helper, or by a method
# of a base class: its scaler steps sharded gradients.
import torch
from torch.cuda.amp import GradScaler
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def shard(model):
    return FSDP(model)


class Trainer:
    def __init__(self, model):
        self.model = shard(model)
        self.opt = torch.optim.Adam(self.model.parameters())
        self.scaler = GradScaler()

    def step(self, x):
        self.scaler.scale(self.model(x).sum()).backward()
        self.scaler.step(self.opt)  # want CV301 "checks only the gradients this rank holds"
        self.scaler.update()


class Base:
    def wrap(self, model):
        self.model = FSDP(model)


class Child(Base):
    def step(self, x, opt):
        scaler = GradScaler()
        scaler.scale(self.model(x).sum()).backward()
        scaler.step(opt)  # want CV301 "checks only the gradients this rank holds"
        scaler.update()
