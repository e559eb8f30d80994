# Relative imports, and a name re-exported by the package.
import torch.distributed as dist

from . import is_master as master
from .env import world


def checkpoint(state):
    if master:
        dist.broadcast(state, src=0)  # want CV301 "master"


def everyone(x):
    if world > 1:
        dist.all_reduce(x)
