# A handler that swallows an epoch's error and then either leaves the
# loop or goes round again (`if failures >= 3: break` / `else: continue`):
# either way the failed rank skips the rest of the pass that the others
# are still in (a DataLoader timeout on one slow rank).
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class Trainer:
    def __init__(self, model, loader, device):
        self.model = DDP(model.to(device), device_ids=[device])
        self.loader = loader
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def train_epoch(self):
        for batch in self.loader:
            self.model(batch).sum().backward()
            self.opt.step()

    def train(self, epochs):
        failures = 0
        for epoch in range(epochs):
            try:
                self.train_epoch()  # want CV301 "skipped on a rank whose work before it raises"
            except Exception:
                failures += 1
                if failures >= 3:
                    break
                else:
                    time.sleep(5)
                    continue
        dist.barrier()
