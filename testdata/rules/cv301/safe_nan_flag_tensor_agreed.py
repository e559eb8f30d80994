# The NaN flag is all-reduced (op=MAX) before it is tested: every rank
# takes the same arm.
import os

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    w = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(8, 1).cuda())
    for step in range(100):
        loss = w(torch.randn(4, 8, device="cuda")).pow(2).mean()
        if torch.isnan(loss).any():
            bad = torch.tensor([1.0], device="cuda")
        else:
            bad = torch.tensor([0.0], device="cuda")
        dist.all_reduce(bad, op=dist.ReduceOp.MAX)
        if bad.item() == 1:
            continue
        t = loss.detach().clone()
        dist.all_reduce(t)
        loss.backward()
