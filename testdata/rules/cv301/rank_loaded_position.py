# Only local rank 0 resumes (reads the iteration from the checkpoint); the
# others start at 1, and the evaluation all-reduce gated on the iteration
# runs at different passes on different ranks (microgpt's trainer).
import os

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    it = 1
    if local_rank == 0:
        it = torch.load("ckpt.pt")["iteration"] + 1
    for step in range(1000):
        if (it + step) % 100 == 0:
            val = torch.ones(1, device="cuda")
            dist.all_reduce(val)  # want CV301 "all_reduce"
