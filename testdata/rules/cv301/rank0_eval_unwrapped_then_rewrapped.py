# Unwrapped, then bound to the wrapper again before the forward: rank 0
# alone runs DDP's forward, which broadcasts the BatchNorm buffers.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def eval_rewrapped(model, wrapper, batches):
    if hasattr(model, "module"):
        model = model.module
    model = wrapper
    return [model(x) for x in batches]


def main_rewrapped():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)).cuda()
    model = DDP(net, device_ids=[rank])
    for step in range(1, 100):
        model(torch.randn(2, 4, device="cuda")).sum().backward()
        if rank == 0 and step % 10 == 0:
            eval_rewrapped(model, model, [torch.randn(2, 4, device="cuda")])  # want CV301 "rank == 0 and step % 10 == 0"
