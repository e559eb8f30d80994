# The printing rank is rank 0 under a launcher, and the single process
# otherwise (mistral-inference's interactive mode): in a launched job the
# flag is the rank test, and rank 0 alone leaves the loop on an empty
# prompt while the others wait in the next broadcast.
import os

import torch
import torch.distributed as dist


def is_torchrun():
    return all(v in os.environ for v in ["MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE"])


def interactive():
    if is_torchrun():
        dist.init_process_group()
        should_print = dist.get_rank() == 0
    else:
        should_print = True
    while True:
        if should_print:
            text = input("prompt: ")
            if not text:
                break
            length = torch.tensor([len(text)])
        else:
            length = torch.tensor([0])
        if is_torchrun():
            dist.broadcast(length, src=0)  # want CV301 "do not leave early"
