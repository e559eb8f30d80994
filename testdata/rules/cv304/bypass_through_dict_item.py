# The output of the module called past its DDP wrapper is kept in a dict
# item and the loss is computed from it (unitable's Batch.inference): the
# backward still never meets DDP's reducer.
import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Batch:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def inference(self, model, criterion):
        memory = model.module.encode(self.x)
        out = model.module.decode(memory)
        pred = dict()
        pred["html"] = out
        return criterion(pred["html"], self.y)


class Trainer:
    def __init__(self, net, device):
        self.model = DDP(net.to(device), device_ids=[device])
        self.optimizer = torch.optim.AdamW(self.model.parameters())
        self.criterion = nn.CrossEntropyLoss()

    def train_epoch(self, loader):
        for x, y in loader:
            loss = Batch(x, y).inference(self.model, self.criterion)
            loss.backward()  # want CV304 "inference"
            self.optimizer.step()
