# A helper whose answer is computed from the random draw it is given.
import random

import torch.distributed as dist


def keep(p, rate):
    return p > rate


def step(t, rate):
    if keep(random.random(), rate):
        dist.all_reduce(t)  # want CV301 "random"
