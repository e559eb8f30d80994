# A "main process" helper written with statements that return True or
# False (asv-subtools' is_main_training): its call is a rank test, and the
# validation barrier under it runs on rank 0 alone.
import os

import torch.distributed as dist


def use_ddp():
    return os.environ.get("USE_DDP") == "true"


def is_main_training():
    if use_ddp():
        if dist.get_rank() == 0:
            return True
        else:
            return False
    return True


def validate():
    dist.barrier()


def run():
    if is_main_training():
        validate()  # want CV301 "runs only when `is_main_training\(\)` holds"
