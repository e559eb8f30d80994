# Rank names imported from the modules that bind them, tested around
# collectives; and the imported names that every rank agrees on.
import torch.distributed as dist

import dist_env
from common import IS_MAIN
from dist_env import DISTRIBUTED, WORLD_SIZE
from dist_env import RANK as GLOBAL_RANK


def save(model, path):
    if IS_MAIN:
        dist.barrier()  # want CV301 "runs only when `IS_MAIN` holds"


def log_loss(loss):
    if GLOBAL_RANK == 0:
        dist.all_reduce(loss)  # want CV301 "GLOBAL_RANK == 0"


def report(stats):
    if dist_env.LOCAL_RANK == 0:
        dist.all_reduce(stats)  # want CV301 "dist_env.LOCAL_RANK == 0"


def launched():
    if DISTRIBUTED:
        dist.barrier()


def sized(x):
    if WORLD_SIZE > 1:
        dist.all_reduce(x)


def shadowed(IS_MAIN):
    if IS_MAIN:
        dist.barrier()


def gated_io(path):
    dist.barrier()
    if IS_MAIN:
        open(path, "w").close()
