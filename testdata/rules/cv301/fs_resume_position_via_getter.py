# The resume epoch is set on a reporter under this host's file check and
# read back through a getter (`def get_epoch(self): return self.epoch`,
# FunCodec's reporter): the loop it bounds runs a host's own number of
# passes, as when the attribute is read directly.
import os

import torch
import torch.distributed as dist


class Reporter:
    def __init__(self):
        self.epoch = 0

    def get_epoch(self):
        return self.epoch


def run(output_dir, max_epoch):
    reporter = Reporter()
    ckpt = os.path.join(output_dir, "checkpoint.pth")
    if os.path.exists(ckpt):
        states = torch.load(ckpt, map_location="cpu")
        reporter.epoch = states["reporter"]["epoch"]
    start_epoch = reporter.get_epoch() + 1
    for iepoch in range(start_epoch, max_epoch + 1):
        dist.all_reduce(torch.ones(1).cuda())  # want CV301 "file system check"


def main():
    dist.init_process_group("nccl")
    run("exp", 10)
