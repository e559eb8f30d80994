# Rank names taken by star imports: every public name of a module without
# __all__, only the listed ones of a module with it.
import torch.distributed as dist

from dist_env import *
from listed_env import *


def log_loss(loss):
    if RANK == 0:
        dist.all_reduce(loss)  # want CV301 "RANK == 0"


def main_only(x):
    if IS_LEADER:
        dist.broadcast(x, src=0)  # want CV301 "IS_LEADER"


def unlisted_not_taken(x):
    # listed_env's __all__ leaves IS_FIRST out: the star import does not
    # bind it here (Python would raise NameError; no rank test is seen).
    if IS_FIRST:
        dist.all_reduce(x)


def sized(x):
    if WORLD_SIZE > 1:
        dist.all_reduce(x)
