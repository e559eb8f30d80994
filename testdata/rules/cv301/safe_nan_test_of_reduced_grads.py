# Under DDP every rank holds the all-reduced gradients, the same on every
# rank: a NaN test of them agrees.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def step(net, x, opt):
    model = DDP(net.cuda())
    loss = model(x).sum()
    loss.backward()
    for p in model.parameters():
        if torch.isnan(p.grad).any():
            return
    dist.barrier()
    opt.step()
