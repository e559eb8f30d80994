# Horovod is optional: the optimizer is wrapped, synchronized, and
# stepped under skip_synchronize() only where use_horovod() holds; the
# else arm steps the plain optimizer, with nothing in flight
# (asv-subtools' trainer).
# Horovod DistributedOptimizer: gradients are synchronized before clipping,
# under the same condition that wrapped the optimizer.
import os
import torch
import horovod.torch as hvd


def use_horovod():
    return os.getenv("USE_HOROVOD") == "true"


model = torch.nn.Linear(8, 8)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
if use_horovod():
    hvd.init()
    optimizer = hvd.DistributedOptimizer(optimizer, named_parameters=model.named_parameters())


def train_one_batch(x):
    optimizer.zero_grad()
    loss = model(x).sum()
    loss.backward()
    if use_horovod(): optimizer.synchronize()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    if use_horovod():
        with optimizer.skip_synchronize():
            optimizer.step()
    else:
        optimizer.step()
