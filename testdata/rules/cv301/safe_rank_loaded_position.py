# Rank 0 reads the iteration and broadcasts it: every rank then holds the
# same position.
import os

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    it = 1
    if local_rank == 0:
        it = torch.load("ckpt.pt")["iteration"] + 1
    box = [it]
    dist.broadcast_object_list(box, src=0)
    it = box[0]
    for step in range(1000):
        if (it + step) % 100 == 0:
            val = torch.ones(1, device="cuda")
            dist.all_reduce(val)
