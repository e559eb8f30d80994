# Under anomaly detection backward raises on the rank whose batch made a
# NaN; a handler that looks for "nan" in the message and goes on skips
# that rank's gradient all-reduce and step (ORBIT-2's training loop).
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(net, opt, loader):
    torch.autograd.set_detect_anomaly(True)
    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
            opt.zero_grad()
            loss.backward()  # want CV301 "a NaN/Inf test of a value computed from each rank's own batch"
            opt.step()
        except RuntimeError as e:
            if "NaN" in str(e) or "nan" in str(e):
                opt.zero_grad()
                continue
            raise e
