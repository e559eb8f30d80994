# A method that globs this host's checkpoint folder, returns when it
# finds none and otherwise restores self.epoch from the newest one
# (OSTrack's load_checkpoint): the caller's epoch loop starts where this
# host's files say.
import glob

import torch
import torch.distributed as dist


class Trainer:
    def __init__(self, net):
        self.net = net
        self.epoch = 0

    def load_checkpoint(self):
        ckpts = sorted(glob.glob("checkpoints/Net_ep*.pth.tar"))
        if not ckpts:
            return
        state = torch.load(ckpts[-1], map_location="cpu")
        self.epoch = state["epoch"]

    def train(self, loader, max_epochs):
        self.load_checkpoint()
        for epoch in range(self.epoch + 1, max_epochs + 1):
            self.epoch = epoch
            for batch in loader:
                dist.all_reduce(self.net(batch))  # want CV301 "bounds depend on a file system check"
