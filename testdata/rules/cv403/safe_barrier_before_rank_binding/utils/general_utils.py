import os

import torch

LOCAL_RANK = 0
WORLD_SIZE = 1


def init_distributed():
    global LOCAL_RANK, WORLD_SIZE
    LOCAL_RANK = int(os.environ.get("LOCAL_RANK", 0))
    WORLD_SIZE = int(os.environ.get("WORLD_SIZE", 1))
    if WORLD_SIZE > 1:
        torch.distributed.init_process_group("nccl")


def safe_state():
    torch.cuda.set_device(torch.device("cuda", LOCAL_RANK))
