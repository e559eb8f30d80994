# A resumed position read under a file check on each host, then agreed
# before it bounds a loop: through Fabric's broadcast, through a helper
# that broadcasts it and returns the list's element, and through
# accelerate's broadcast_object_list. Every rank runs the same passes.
import os

import torch
import torch.distributed as dist
from accelerate import Accelerator
from accelerate.utils import broadcast_object_list


def broadcast_value(v, src=0):
    box = [v]
    dist.broadcast_object_list(box, src=src)
    return box[0]


def resume_with_helper():
    dist.init_process_group("nccl")
    step = 0
    if os.path.exists("ckpt/state.pt"):
        step = torch.load("ckpt/state.pt")["step"]
    start = broadcast_value(step)
    for i in range(start, 100):
        t = torch.ones(1).cuda()
        dist.all_reduce(t)


def resume_with_fabric(fabric, model, optimizer):
    step = 0
    if os.path.exists("ckpt/state.pt"):
        step = torch.load("ckpt/state.pt")["step"]
    step = fabric.broadcast(step, src=0)
    for i in range(step, 100):
        loss = model(torch.randn(4, 8)).sum()
        fabric.backward(loss)
        optimizer.step()


def resume_with_accelerate():
    accelerator = Accelerator()
    model = accelerator.prepare(torch.nn.Linear(8, 8))
    step = 0
    if os.path.exists("ckpt/state.pt"):
        step = torch.load("ckpt/state.pt")["step"]
    box = [step]
    broadcast_object_list(box, from_process=0)
    start = box[0]
    for i in range(start, 100):
        accelerator.backward(model(torch.randn(4, 8)).sum())
