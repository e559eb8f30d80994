# One method resumes from the checkpoint this host finds, another runs the
# epochs from there (SoundStorm's Solver.resume / Solver.train): a host
# that does not see the file starts over and runs more epochs than the
# others, whose DDP steps then wait for it.
import os

import torch


class Solver:
    def __init__(self, model, loader, max_epochs):
        self.model = torch.nn.parallel.DistributedDataParallel(model)
        self.loader = loader
        self.max_epochs = max_epochs
        self.last_epoch = -1

    def resume(self, path):
        if os.path.exists(path):
            state = torch.load(path, map_location="cpu")
            self.last_epoch = state["last_epoch"]

    def train(self):
        for epoch in range(self.last_epoch + 1, self.max_epochs):
            for batch in self.loader:
                loss = self.model(batch).sum()  # want CV301 "bounds depend on a file system check of this host"
                loss.backward()
