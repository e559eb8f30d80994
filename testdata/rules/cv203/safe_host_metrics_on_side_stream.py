# Python values filed inside a side-stream block launch nothing on it: a
# clock reading, a parameter stored in a dict, a dict of .item() numbers,
# and what a vendored object-gather helper returns for it (fast-reid's
# copy of detectron2's _write_metrics).
import time

import torch
import torch.distributed as dist
from fastreid.utils import comm


class Trainer:
    def __init__(self, model, loader):
        self.model = model
        self.it = iter(loader)

    def run_step(self):
        start = time.perf_counter()
        batch = next(self.it)
        data_time = time.perf_counter() - start
        loss = self.model(batch).sum()
        loss.backward()
        self._write_metrics(data_time)

    def _write_metrics(self, data_time):
        with torch.cuda.stream(torch.cuda.Stream()):
            metrics = {}
            metrics["data_time"] = data_time
        if dist.get_rank() == 0:
            print(metrics)


def write_metrics(loss_dict):
    metrics_dict = {k: v.detach().cpu().item() for k, v in loss_dict.items()}
    with torch.cuda.stream(torch.cuda.Stream()):
        all_metrics = comm.gather(metrics_dict)
    if comm.is_main_process():
        return sum(x["loss"] for x in all_metrics)
    return 0.0
