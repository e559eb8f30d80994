import torch
import horovod.torch as hvd


def train(model, loader):
    opt = hvd.DistributedOptimizer(torch.optim.SGD(model.parameters(), lr=0.1))
    for x in loader:
        model(x).sum().backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.synchronize()  # waits too late
        with opt.skip_synchronize():
            opt.step()
