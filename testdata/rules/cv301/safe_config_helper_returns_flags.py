# A helper that returns True or False from a configuration test, which
# every rank answers alike, and one that returns only True: neither is a
# rank test.
import os

import torch.distributed as dist


def use_ddp():
    if os.environ.get("USE_DDP") == "true":
        return True
    else:
        return False


def always():
    if dist.get_rank() == 0:
        return True
    return True


def validate():
    dist.barrier()


def run():
    if use_ddp():
        validate()
    if always():
        validate()
