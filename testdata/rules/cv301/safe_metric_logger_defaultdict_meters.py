# The metric logger's meters are synchronised on every rank; only the
# printing is the main process's.
from collections import defaultdict

import torch
import torch.distributed as dist


class SmoothedValue:
    def __init__(self):
        self.count, self.total = 0, 0.0

    def synchronize_between_processes(self):
        t = torch.tensor([self.count, self.total], device="cuda")
        dist.barrier()
        dist.all_reduce(t)


class MetricLogger:
    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def synchronize_between_processes(self):
        for meter in self.meters.values():
            meter.synchronize_between_processes()


def evaluate(loader):
    logger = MetricLogger()
    for batch in loader:
        logger.meters["loss"].count += 1
    logger.synchronize_between_processes()
    if dist.get_rank() == 0:
        print({k: m.total for k, m in logger.meters.items()})
