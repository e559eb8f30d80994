# The release nested in the leaders' block tests another rank: every
# node's local rank 0 enters the block, but only global rank 0 passes the
# barrier there.
import os

import torch
import torch.distributed as dist


def save_model(model, local_rank, output_dir):
    if local_rank not in [-1, 0]:
        dist.barrier()

    if local_rank in [-1, 0]:
        torch.save(model.state_dict(), os.path.join(output_dir, "model.pt"))
        if dist.get_rank() == 0:
            dist.barrier()  # want CV301 "get_rank\(\) == 0"


def main():
    local_rank = int(os.environ.get("LOCAL_RANK", -1))
    dist.init_process_group("nccl")
    save_model(torch.nn.Linear(4, 4), local_rank, "out")
