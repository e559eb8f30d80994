# A module-level name bound to the rank, tested in a function.
import os

import jax
import torch.distributed as dist
from jax.experimental import multihost_utils

IS_MAIN = int(os.environ.get("RANK", "0")) == 0
is_master_process = jax.process_index() == 0


def save(model, path):
    if IS_MAIN:
        dist.barrier()  # want CV301 "runs only when `IS_MAIN` holds"


def log_step(samples, outfile):
    if is_master_process:
        stats = multihost_utils.process_allgather(samples)  # want CV301 "is_master_process"
        outfile.write(str(stats))
