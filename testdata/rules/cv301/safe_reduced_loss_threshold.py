# The loss all-reduced before it is compared is every rank's, a bound on
# the epoch count is the configuration's, and a name rebound to a value
# not computed from the forward is no per-rank loss any more.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def summary():
    return 0.5, 0.1


def train(model, loader, optimizer, epochs):
    model = DDP(model.cuda())
    for epoch in range(epochs):
        for data in loader:
            loss = model(data.cuda()).mean()
            loss.backward()
            optimizer.step()
            reduced = loss.detach().clone()
            dist.all_reduce(reduced)
            if reduced.item() < 0.06:
                break
        loss, spread = summary()
        if loss < 0.1:
            break
        if epoch > 10:
            break
