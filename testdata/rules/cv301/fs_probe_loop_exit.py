# A kill-switch file polled in the training loop, after the pass's
# collectives: a rank whose host sees the file a pass earlier leaves while
# the others issue the next pass's all_reduce. Also through a local flag,
# an attribute flag, and an early return that only some paths take.
import os
from pathlib import Path

import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def train(loader, stop_file):
    for t in loader:
        dist.all_reduce(t)  # want CV301 "do not leave early at .*os.path.exists.stop_file."
        if os.path.exists(stop_file):
            break


def train_flag(loader, stop_file):
    stop = False
    for t in loader:
        if os.path.exists(stop_file):
            stop = True
        if stop:
            break
        dist.all_reduce(t)  # want CV301 "do not leave early at .*`stop`"


class Trainer:
    def __init__(self, stop_file):
        self.kill_switch_path = Path(stop_file)
        self.early_stop = False

    def step(self, t):
        dist.all_reduce(t)

    def epoch(self, loader):
        for t in loader:
            self.step(t)  # want CV301 "do not leave early at .*self.early_stop"
            if self.kill_switch_path.exists():
                self.early_stop = True
            if self.early_stop:
                break


def load(state_dict, path, allow_missing=True):
    if not os.path.isdir(path):
        if allow_missing:
            return
        raise FileNotFoundError(path)
    dcp.load(state_dict, checkpoint_id=path)  # want CV301 "do not leave early at .*os.path.isdir"
    dist.barrier()
