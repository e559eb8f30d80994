# torch.device under the `th` alias names a device and holds no memory:
# handing it to a module's .to() on a side stream reads nothing another
# stream wrote (DSDGL's multi-threaded trainer).
import torch as th
import torch.nn as nn


def run(rank):
    th.cuda.set_device(rank)
    device = th.device("cuda:%d" % rank)
    s = th.cuda.Stream(device=device)
    with th.cuda.stream(s):
        model = nn.Linear(8, 8)
        model = model.to(device)
        x = th.randn(4, 8, device=device)
        model(x).sum().backward()
    s.synchronize()
