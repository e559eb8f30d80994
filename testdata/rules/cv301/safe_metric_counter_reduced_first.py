# The metric gathers the counts first and tests the total every rank
# holds.
import torch
import torch.distributed as dist


class LocalMeanMetric:
    def __init__(self, device):
        self.device = device
        self.metric_values = 0
        self.total_values = 0

    def update(self, values):
        self.metric_values += values.sum().item()
        self.total_values += values.numel()

    def compute(self):
        t = torch.tensor([self.metric_values, self.total_values], device=self.device)
        dist.all_reduce(t)
        if t[1] == 0:
            return torch.tensor(0.0, device=self.device)
        return t[0] / t[1]
