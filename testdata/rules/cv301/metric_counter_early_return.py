# A metric sums what update() is handed and returns early from compute()
# when its count is 0, before it gathers the sums (MaskGR's mean-reduction
# metric): a rank whose evaluation shard was empty returns while the
# others wait in the gather.
import torch
import torch.distributed as dist
from torchmetrics.utilities.distributed import gather_all_tensors


class LocalMeanMetric:
    def __init__(self, device):
        self.device = device
        self.metric_values = 0
        self.total_values = 0

    def update(self, values):
        self.metric_values += values.sum().item()
        self.total_values += values.numel()

    def compute(self):
        metric_t = torch.tensor(self.metric_values, device=self.device)
        total_t = torch.tensor(self.total_values, device=self.device)
        if self.total_values == 0:
            return torch.tensor(0.0, device=self.device)
        metric_t = torch.stack(gather_all_tensors(metric_t)).sum()  # want CV301 "leave early"
        total_t = torch.stack(gather_all_tensors(total_t)).sum()
        return metric_t / total_t


class Counter:
    def __init__(self):
        self.n = 0
        self.loss = 0.0

    def add(self, batch, loss):
        self.n += len(batch)
        self.loss += loss

    def mean(self):
        if not self.n:
            return 0.0
        t = torch.tensor([self.loss, self.n], device="cuda")
        dist.all_reduce(t)  # want CV301 "leave early"
        return (t[0] / t[1]).item()
