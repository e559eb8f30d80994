# With broadcast_buffers=False DDP's forward communicates nothing, and
# the module DDP wraps (model.module) never does: rank 0 alone may run
# either.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def main(net, x):
    model = DistributedDataParallel(net, broadcast_buffers=False)
    if dist.get_rank() == 0:
        model(x)
    for _ in range(3):
        model(x).sum().backward()
