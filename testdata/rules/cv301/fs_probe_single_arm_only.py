# The single-process arm is exempt, not the distributed one: a value each
# rank computes from its own file system still decides the collective.
import os

import torch.distributed as dist


def load(path):
    verdict = True
    if not dist.is_initialized():
        print("one process")
    else:
        verdict = os.path.exists(path)
    if verdict:
        dist.barrier()  # want CV301 "barrier on the default group .*`verdict`"
