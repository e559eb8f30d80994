# A resume that raises where the file is missing leaves only hosts that
# loaded it; one whose position is agreed by a broadcast before the loop
# is every rank's.
import os
from pathlib import Path

import torch
import torch.distributed as dist


class StrictSolver:
    def __init__(self, model, loader, max_epochs, start_epoch):
        self.model = torch.nn.parallel.DistributedDataParallel(model)
        self.loader = loader
        self.max_epochs = max_epochs
        self.start_epoch = start_epoch
        self.last_epoch = -1

    def resume(self, exp_dir):
        ckpt = None
        if self.start_epoch > 1:
            ckpt = Path(exp_dir) / f"epoch-{self.start_epoch - 1}.pt"
        if ckpt and ckpt.is_file():
            self.last_epoch = torch.load(ckpt)["epoch"]
        elif ckpt:
            raise FileNotFoundError(ckpt)

    def train(self):
        for epoch in range(self.last_epoch + 1, self.max_epochs):
            for batch in self.loader:
                self.model(batch).sum().backward()


class AgreedSolver:
    def __init__(self, model, loader, max_epochs):
        self.model = torch.nn.parallel.DistributedDataParallel(model)
        self.loader = loader
        self.max_epochs = max_epochs
        self.last_epoch = -1

    def resume(self, path):
        if os.path.exists(path):
            self.last_epoch = torch.load(path)["last_epoch"]

    def train(self):
        box = [self.last_epoch]
        dist.broadcast_object_list(box, src=0)
        self.last_epoch = box[0]
        for epoch in range(self.last_epoch + 1, self.max_epochs):
            for batch in self.loader:
                self.model(batch).sum().backward()
