# A profiler handed the DDP wrapper on rank 0 runs its forward there
# (OpenSTL's display_method_info: fvcore's FlopCountAnalysis after the
# wrap), and DDP's forward broadcasts the BatchNorm buffers from rank 0
# while the other ranks are already in their first gradient all-reduce.
import os

import thop
import torch
import torch.distributed as dist
import torch.nn as nn
from fvcore.nn import FlopCountAnalysis, flop_count_table
from torch.nn.parallel import DistributedDataParallel as DDP
from torchinfo import summary


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("nccl")
    net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8)).cuda()
    model = DDP(net, device_ids=[local_rank])
    dummy = torch.ones(1, 3, 32, 32, device="cuda")
    if dist.get_rank() == 0:
        print(flop_count_table(FlopCountAnalysis(model, dummy)))  # want CV301 "get_rank\(\) == 0"
    if dist.get_rank() == 0:
        thop.profile(model, inputs=(dummy,))  # want CV301 "get_rank\(\) == 0"
    if dist.get_rank() == 0:
        summary(model, input_size=(1, 3, 32, 32))  # want CV301 "get_rank\(\) == 0"
    if dist.get_rank() == 0:
        torch.jit.trace(model, dummy)  # want CV301 "get_rank\(\) == 0"
    # The wrapped module, the module before the wrap, and a summary
    # without an input run no DDP forward.
    if dist.get_rank() == 0:
        print(flop_count_table(FlopCountAnalysis(model.module, dummy)))
        thop.profile(net, inputs=(dummy,))
        summary(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        model(torch.randn(4, 3, 32, 32, device="cuda")).mean().backward()
        opt.step()


class Trainer:
    # The attribute later holds the DDP wrapper, but the summary runs on
    # the module bound just before it (VoiceprintRecognition's
    # setup_model, called again from a rank-0 evaluation).
    def __init__(self):
        self.model = None

    def setup_model(self):
        self.model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8)).cuda()
        summary(self.model, (1, 3, 32, 32))

    def train(self, local_rank):
        self.setup_model()
        self.model = DDP(self.model, device_ids=[local_rank])
        for _ in range(3):
            self.model(torch.randn(4, 3, 32, 32, device="cuda")).mean().backward()
            if dist.get_rank() == 0:
                self.evaluate()  # want CV301 "get_rank\(\) == 0"

    def evaluate(self):
        if self.model is None:
            self.setup_model()
        self.wrapped_summary()

    def wrapped_summary(self):
        summary(self.model, (1, 3, 32, 32))
