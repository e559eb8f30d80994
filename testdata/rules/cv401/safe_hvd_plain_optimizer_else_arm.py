# The optimizer is Horovod's only where dist_mode says so (and the run is
# not independent); the else arm of the same test steps the plain torch
# optimizer, with no allreduce in flight, so its clip reads settled
# gradients. The Horovod arm synchronizes before its own clip.
import torch
import horovod.torch as hvd


def wrap(model, optimizer, opt):
    if opt.dist_mode == "horovod" and not opt.independent_training:
        optimizer = hvd.DistributedOptimizer(optimizer, named_parameters=model.named_parameters())
    return model, optimizer


def train_step(model, optimizer, x, opt):
    loss = model(x).sum()
    optimizer.zero_grad()
    if opt.dist_mode == "horovod":
        loss.backward()
        optimizer.synchronize()
        torch.nn.utils.clip_grad_value_(model.parameters(), 1.0)
        with optimizer.skip_synchronize():
            optimizer.step()
    else:
        loss.backward()
        torch.nn.utils.clip_grad_value_(model.parameters(), 1.0)
        optimizer.step()


def main(opt):
    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer = wrap(model, optimizer, opt)
    train_step(model, optimizer, torch.randn(2, 4), opt)
