import torch
from torch.nn.parallel import DistributedDataParallel as DDP


def train(net, loader, local_rank):
    model = DDP(net.cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model.module(x), y)
        loss.backward()  # want CV304 "computed by `model.module`"
        opt.step()
