# The master alone evaluates the stopping criterion and ends its process
# with status 0 inside a helper called at the end of each epoch (XLM's
# end_epoch): the launcher takes that for success, and the other ranks
# wait in the next epoch's DDP all-reduce.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def end_epoch(state):
    if dist.get_rank() == 0:
        state["bad"] += 1
        if state["bad"] > 3:
            exit()


def main():
    dist.init_process_group("nccl")
    model = DDP(torch.nn.Linear(8, 8).cuda(), device_ids=[dist.get_rank()])
    state = {"bad": 0}
    for epoch in range(100):
        for x in range(10):
            model(torch.randn(2, 8, device="cuda")).sum().backward()  # want CV301 "do not leave early"
        end_epoch(state)
