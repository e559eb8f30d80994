# The forward calls the module by the name it had before it was wrapped;
# the fix calls the wrapper.
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def train(loader, rank):
    model = nn.Linear(8, 1).cuda()
    ddp_model = DDP(model, device_ids=[rank])
    opt = torch.optim.SGD(ddp_model.parameters(), lr=0.1)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
