# A start position chosen under a rank test is handed to a constructor,
# kept in self._iteration, and bounds the loop of collectives in a
# method: ranks run different numbers of all-reduces.
import os

import torch
import torch.distributed as dist


class Trainer:
    def __init__(self, iteration):
        self._iteration = iteration

    def run(self):
        for step in range(self._iteration, 1000):
            dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "all_reduce"


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    it = 1
    if local_rank == 0:
        it = 5
    Trainer(it).run()
