# DeiT's metric logger keeps its meters in a defaultdict whose factory is
# the meter class; synchronising them all-reduces each meter. A rank that
# returns early (its host lacks the task's checkpoint) never joins
# (dualprompt's --eval path).
import os
from collections import defaultdict

import torch
import torch.distributed as dist


class SmoothedValue:
    def __init__(self):
        self.count, self.total = 0, 0.0

    def update(self, value):
        self.count += 1
        self.total += value

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


def evaluate(acc):
    logger = MetricLogger()
    logger.meters["Acc@1"].update(acc)
    logger.synchronize_between_processes()


def main(output_dir, num_tasks, acc):
    for task_id in range(num_tasks):
        if not os.path.exists(os.path.join(output_dir, f"task{task_id}.pth")):
            return
        evaluate(acc)  # want CV301 "barrier on .* runs only on the ranks that do not leave early .*a file system check"
