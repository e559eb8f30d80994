# The whole state loaded under the check gives the constructor settings
# that every rank shares, not a position: what it reads from them bounds
# nothing, and a position read from the launch's own config is the same
# everywhere.
import os

import torch
import torch.distributed as dist


class Solver:
    def __init__(self, config, path):
        self.config = config
        if os.path.isfile(path):
            self.state = torch.load(path, map_location="cpu")
        else:
            self.state = {}
        self.start = config.start_iter

    def train(self, t):
        for _ in range(self.start, self.config.max_iter):
            dist.all_reduce(t)
