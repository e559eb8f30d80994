# A handler that only logs a NaN error and re-raises lets the launcher
# stop the job; one that tests some other message recovers from an error
# that is not a rank's own NaN.
import torch
from torch.nn.parallel import DistributedDataParallel as DDP


def train(net, opt, loader):
    model = DDP(net)
    for x in loader:
        try:
            model(x).sum().backward()
            opt.step()
        except RuntimeError as e:
            if "nan" in str(e):
                print("NaN in backward")
            raise


def train_other(net, opt, loader):
    model = DDP(net)
    for x in loader:
        try:
            model(x).sum().backward()
            opt.step()
        except RuntimeError as e:
            if "cudnn" in str(e):
                raise RuntimeError("cuDNN failure") from e
            raise
