# A loader whose first arm loads a path the caller hands it, and which
# otherwise lists this host's checkpoint directory. Called without that
# path, the first arm never runs: what it returns is this host's answer,
# and a node that finds nothing starts at step 0 while the others resume
# (elastic-training-harness's node-local NVMe tier). Called with a path,
# it loads what every rank was told to load.
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class LocalStore:
    def __init__(self, base):
        self.base = Path(base)

    def latest(self):
        found = sorted(self.base.glob("*.pt"))
        if not found:
            return None
        return found[-1]

    def load(self, path):
        return torch.load(self.base / path)


class Checkpoints:
    def __init__(self, base):
        self.store = LocalStore(base)

    def load_checkpoint(self, path=None, tier=None):
        if path and tier:
            return self.store.load(path)
        latest = self.store.latest()
        if latest:
            return self.store.load(latest)
        return None


def main():
    dist.init_process_group("gloo")
    model = DDP(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    manager = Checkpoints("/local_nvme/checkpoints")
    start_step = 0
    checkpoint = manager.load_checkpoint()
    if checkpoint:
        start_step = checkpoint["step"]
    for step in range(start_step, 1000):
        loss = model(torch.randn(2, 4)).sum()  # want CV301 "whose bounds depend on a file system check of this host"
        opt.zero_grad()
        loss.backward()
        opt.step()


def main_given_path(resume_path, tier):
    dist.init_process_group("gloo")
    model = DDP(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    manager = Checkpoints("/shared/checkpoints")
    start_step = 0
    checkpoint = manager.load_checkpoint(resume_path, tier)
    if checkpoint:
        start_step = checkpoint["step"]
    for step in range(start_step, 1000):
        loss = model(torch.randn(2, 4)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
