# The constructor resumes from a checkpoint it finds on this host and
# keeps the epoch on the instance: the training loop another method runs
# from that epoch makes as many passes as this host's disk says
# (Multiple Physics Pretraining's trainer).
import os

import torch
import torch.distributed as dist


class Trainer:
    def __init__(self, path):
        self.startEpoch = 0
        if os.path.isfile(path):
            self.startEpoch = torch.load(path, map_location="cpu")["epoch"]

    def train(self, t):
        for epoch in range(self.startEpoch, 100):
            dist.all_reduce(t)  # want CV301 "range\(self.startEpoch, 100\)`, whose bounds depend on a file system check"


class Solver:
    # The whole state is loaded under the check, and the position is read
    # from it into the configuration next (DeCLIP's solver):
    # `self.config.last_iter` is this host's answer.
    def __init__(self, config, path):
        self.config = config
        if os.path.isfile(path):
            self.state = torch.load(path, map_location="cpu")
        else:
            self.state = {"last_iter": 0}
        self.config.last_iter = self.state["last_iter"]

    def train(self, t):
        for _ in range(self.config.last_iter, self.config.max_iter):
            dist.all_reduce(t)  # want CV301 "range\(self.config.last_iter, self.config.max_iter\)`, whose bounds depend on a file system check"
