# The master's helper ends its process with a failing status (and the
# other helper's exit is no rank's own decision): the launcher stops the
# whole job on the failure, and every rank takes the shared stop.
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def check(state):
    if dist.get_rank() == 0:
        if state["bad"] > 3:
            sys.exit(1)


def stop_all(state, epoch):
    if epoch >= state["epochs"]:
        exit()


def main():
    dist.init_process_group("nccl")
    model = DDP(torch.nn.Linear(8, 8).cuda(), device_ids=[dist.get_rank()])
    state = {"bad": 0, "epochs": 10}
    for epoch in range(100):
        for x in range(10):
            model(torch.randn(2, 8, device="cuda")).sum().backward()
        check(state)
        stop_all(state, epoch)
