# The loop runs from step 0 and skips the steps a resumed run has done:
# the step is read from a file only under this host's check, so hosts
# that see different files skip different numbers of passes, and the
# step-keyed all-reduce falls on different passes (plaid's resumed loop).
import os

import torch
import torch.distributed as dist


def train(steps, print_freq, loss):
    first_step = 0
    if os.path.exists("model.pt"):
        with open("step") as f:
            first_step = int(f.read()) + 1
    for step in range(steps):
        if step < first_step:
            continue
        loss = loss + 1.0
        if step % print_freq == print_freq - 1:
            dist.all_reduce(loss)  # want CV301 "once per pass the loop does not skip with `if step < first_step: continue`, whose bounds depend on a file system check"


def train_state(steps, loss, path):
    start = 0
    if os.path.isfile(path):
        start = torch.load(path)["iteration"]
    for it in range(steps):
        if start > it:
            print("skipping", it)
            continue
        dist.all_reduce(loss)  # want CV301 "does not skip with `if start > it: continue`"
