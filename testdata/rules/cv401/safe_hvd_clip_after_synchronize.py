# The optimizer is synchronized before the clip (Horovod's documented
# recipe), the optimizer is torch's own, or the clip follows the step.
import torch
import horovod.torch as hvd


def synchronized(model, loader):
    opt = hvd.DistributedOptimizer(torch.optim.SGD(model.parameters(), lr=0.1))
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        opt.synchronize()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        with opt.skip_synchronize():
            opt.step()


def plain_optimizer(model, loader):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()


def clip_after_step(model, loader):
    opt = hvd.DistributedOptimizer(torch.optim.SGD(model.parameters(), lr=0.1))
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
