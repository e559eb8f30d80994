# One method sets a flag on rank 0 only (it found the examples to resume
# from there); another method of the class skips a gather on it
# (pyGraphZero's coach, skipFirstSelfPlay): rank 0 skips the first
# iteration's gather while the other ranks wait in it.
import os

import torch
import torch.distributed as dist


class Coach:
    def __init__(self):
        self.rank = dist.get_rank()
        self.world_size = dist.get_world_size()
        self.history = []
        self.skip_first = False

    def load_examples(self, path):
        if self.rank == 0:
            if os.path.isfile(path):
                self.history = torch.load(path)
                self.skip_first = True
        dist.barrier()

    def learn(self, iters):
        for i in range(1, iters + 1):
            if not self.skip_first or i > 1:
                gathered = [None] * self.world_size
                dist.all_gather_object(gathered, [i])  # want CV301 "runs only when `not self.skip_first or i > 1` holds"
            size = torch.tensor([len(self.history)])
            dist.broadcast(size, src=0)


def main():
    dist.init_process_group("gloo")
    c = Coach()
    c.load_examples("examples.pt")
    c.learn(3)
