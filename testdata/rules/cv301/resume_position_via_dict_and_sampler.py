# maskrcnn-benchmark's resume: a checkpointer that returns {} where this
# host has no checkpoint and the loaded state otherwise, merged into the
# run's arguments, and an iteration-based sampler started at the
# position read back from them: hosts that see different checkpoints run
# different numbers of iterations.
import os

import torch
import torch.distributed as dist
from torch.utils.data.sampler import BatchSampler, SequentialSampler


class CheckPointer:
    def __init__(self, save_dir):
        self.save_dir = save_dir

    def load(self):
        if not os.path.exists(os.path.join(self.save_dir, "last_checkpoint.txt")):
            return {}
        return torch.load(os.path.join(self.save_dir, "model.pth"), map_location="cpu")


class IterationBasedBatchSampler(BatchSampler):
    def __init__(self, batch_sampler, num_iterations, start_iter=0):
        self.batch_sampler = batch_sampler
        self.num_iterations = num_iterations
        self.start_iter = start_iter

    def __iter__(self):
        iteration = self.start_iter
        while iteration <= self.num_iterations:
            for batch in self.batch_sampler:
                iteration += 1
                if iteration > self.num_iterations:
                    break
                yield batch


def train_range(model):
    arguments = {"iteration": 0}
    extra = CheckPointer("out").load()
    arguments.update(extra)
    start_iter = arguments["iteration"]
    for iteration in range(start_iter, 1000):
        dist.barrier()  # want CV301 "file system"


def train_sampler(model):
    extra = CheckPointer("out").load()
    start_iter = extra.get("iteration", 0)
    sampler = IterationBasedBatchSampler(BatchSampler(SequentialSampler(range(64)), 8, False), 1000, start_iter)
    for iteration, batch in enumerate(sampler, start_iter):
        dist.barrier()  # want CV301 "file system"
