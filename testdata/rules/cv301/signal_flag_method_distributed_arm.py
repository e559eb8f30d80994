# The same method shape, but it hands back the raw flag on the arm where
# the process group exists: each rank leaves at its own pass.
import signal

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class RawStopFlag:
    def __init__(self):
        self.requested = False
        signal.signal(signal.SIGTERM, self._handler)

    def _handler(self, signum, frame):
        self.requested = True

    def agreed(self):
        if dist.is_initialized():
            return self.requested
        return False


def main():
    dist.init_process_group("gloo")
    model = DDP(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    stop = RawStopFlag()
    for step in range(100):
        loss = model(torch.randn(2, 4)).sum()  # want CV301 "reads a flag a signal handler sets"
        opt.zero_grad()
        loss.backward()
        opt.step()
        if stop.agreed():
            break
