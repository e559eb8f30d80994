# The optimizer's own synchronize() is there, but after the clip: the
# clip still reads the gradients the backward's hooks are all-reducing
# (ZenNAS's apex arm, where the synchronize() sits inside the loss
# scaler's with block and the step under skip_synchronize() after it).
import torch
import horovod.torch as hvd
from apex import amp


def train(model, loader, clip):
    hvd.init()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    optimizer = hvd.DistributedOptimizer(optimizer, named_parameters=model.named_parameters())
    for x in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        torch.nn.utils.clip_grad_value_(model.parameters(), 1.0)  # want CV401 "comes after this read, at line 18"
        optimizer.synchronize()
        with optimizer.skip_synchronize():
            optimizer.step()


def train_apex(model, loader, clip):
    optimizer = hvd.DistributedOptimizer(torch.optim.SGD(model.parameters(), lr=0.1))
    for x in loader:
        optimizer.zero_grad()
        with amp.scale_loss(model(x).sum(), optimizer) as scaled_loss:
            scaled_loss.backward()
            if clip is not None:
                torch.nn.utils.clip_grad_value_(model.parameters(), clip)  # want CV401 "synchronize\(\) that waits for them comes after this read"
            optimizer.synchronize()
        with optimizer.skip_synchronize():
            optimizer.step()


def train_norm_logged(model, loader, clip):
    # The norm is read before either path's wait: the clip path
    # synchronizes (after the read), the other leaves it to step().
    optimizer = hvd.DistributedOptimizer(torch.optim.SGD(model.parameters(), lr=0.1))
    for x in loader:
        model(x).sum().backward()
        norms = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)  # want CV401 "which the step at line 49 calls"
        if clip:
            optimizer.synchronize()
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            with optimizer.skip_synchronize():
                optimizer.step()
        else:
            optimizer.step()
        print(norms)
