# The same listing, only logged: the training loop's bounds are the
# configuration's, the same on every rank.
import os

import torch.distributed as dist


def main(t, total_iters, opt):
    try:
        states = os.listdir(opt["state_dir"])
    except OSError:
        states = []
    print("found", len(states), "states")
    current_iter = 0
    while current_iter <= total_iters:
        current_iter += 1
        dist.all_reduce(t)
