# evaluate() runs on rank 0 alone (its only call is under a rank test,
# the finding): a batch it skips on an error has no peer to fall out of
# step with, so the swallowed error is not reported inside it. Called on
# every rank too, it is.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class Trainer:
    def __init__(self, model, device):
        self.model = DDP(model.to(device), device_ids=[device])

    def evaluate(self, loader):
        losses = []
        with torch.no_grad():
            for batch in loader:
                try:
                    noisy = batch + torch.randn_like(batch)
                    out = self.model(noisy)
                    losses.append(out.mean().item())
                except Exception:
                    continue
        return losses

    def finish(self, loader):
        if dist.get_rank() == 0:
            self.evaluate(loader)  # want CV301 "runs only when `dist.get_rank\(\) == 0` holds"
        dist.barrier()


class EveryRank:
    def __init__(self, model, device):
        self.model = DDP(model.to(device), device_ids=[device])

    def evaluate(self, loader):
        for batch in loader:
            try:
                noisy = batch + torch.randn_like(batch)
                self.model(noisy)  # want CV301 "skipped on a rank whose work before it raises"
            except Exception:
                continue

    def finish(self, loader):
        self.evaluate(loader)
        dist.barrier()
