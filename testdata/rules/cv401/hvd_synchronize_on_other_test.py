# The synchronize() runs only when clipping is asked for, but the clip
# and the step that follow run either way: without it the clip reads
# gradients Horovod is still all-reducing.
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


def train_one_batch(x, clip):
    optimizer.zero_grad()
    loss = model(x).sum()
    loss.backward()
    if clip:
        optimizer.synchronize()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # want CV401 "still all-reducing"
    if clip:
        with optimizer.skip_synchronize():
            optimizer.step()
    else:
        optimizer.step()
