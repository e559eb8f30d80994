# Module-level rank names hidden by a parameter or a local of the same
# name, and a global that only asks whether the job is distributed.
import os

import torch.distributed as dist

IS_MAIN = int(os.environ.get("RANK", "0")) == 0
LOCAL_RANK = int(os.environ.get("LOCAL_RANK", "-1"))
DISTRIBUTED = LOCAL_RANK != -1


def shadowed(IS_MAIN):
    if IS_MAIN:
        dist.barrier()


def rebound():
    IS_MAIN = True
    if IS_MAIN:
        dist.barrier()


def launched():
    if DISTRIBUTED:
        dist.barrier()


def gated_io(path):
    dist.barrier()
    if IS_MAIN:
        open(path, "w").close()
