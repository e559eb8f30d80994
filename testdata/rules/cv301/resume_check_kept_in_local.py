# The file check's answer is kept in a local first (`resuming =
# os.path.isfile(path)`), then gates the load of the start epoch: the
# epoch is still this host's answer (PolymathicAI's MPP trainer, reduced).
import os

import torch
import torch.distributed as dist


def main(path):
    dist.init_process_group("nccl")
    resuming = os.path.isfile(path)
    start = 0
    if resuming:
        start = torch.load(path)["epoch"]
    for epoch in range(start, 10):
        t = torch.ones(1).cuda()
        dist.all_reduce(t)  # want CV301 "whose bounds depend on a file system check of this host"
