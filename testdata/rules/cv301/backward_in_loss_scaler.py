# The backward runs in a loss scaler the loop hands the DDP model's loss
# (timm's and Swin's NativeScaler, EdgeSAM's trainer): the loop's bounds
# come from this host's checkpoint listing, so hosts run different
# numbers of gradient all-reduces.
import os

import torch
import torch.distributed as dist


class NativeScaler:
    def __init__(self):
        self._scaler = torch.cuda.amp.GradScaler()

    def __call__(self, loss, optimizer):
        self._scaler.scale(loss).backward()
        self._scaler.step(optimizer)
        self._scaler.update()


def train_one_epoch(model, data, optimizer, loss_scaler):
    for x in data:
        loss_scaler(model(x).sum(), optimizer)


def main(output_dir, epochs, data):
    dist.init_process_group("nccl")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda(), broadcast_buffers=False)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    start_epoch = 0
    ckpts = [c for c in os.listdir(output_dir) if c.endswith("pth")]
    if ckpts:
        start_epoch = torch.load(os.path.join(output_dir, ckpts[-1]))["epoch"] + 1
    for epoch in range(start_epoch, epochs):
        train_one_epoch(model, data, optimizer, NativeScaler())  # want CV301 "backward\(\)"
