# The epoch a host's checkpoint holds, stored into a state dict under the
# check and read back as the loop's start: a host that sees no file
# starts from zero (moshpit-sgd's resume state). A key stored from the
# arguments alone says nothing of the host.
import os

import torch
import torch.distributed as dist


def main(ckpt_path, num_epochs, first):
    dist.init_process_group("gloo")
    state = {"epoch": 0}
    if os.path.isfile(ckpt_path):
        checkpoint = torch.load(ckpt_path)
        state["epoch"] = checkpoint["epoch"]
    start_epoch = state["epoch"]
    for epoch in range(start_epoch, num_epochs):
        dist.all_reduce(torch.ones(1))  # want CV301 "whose bounds depend on a file system check"
    opts = {"epoch": 0}
    opts["epoch"] = first
    for epoch in range(opts["epoch"], num_epochs):
        dist.barrier()
