# A method that all-reduces the signal flag (MAX) before answering: every
# rank gets the same answer at the same pass. Its raw flag is returned
# only where no process group exists (resilient-trainer's StopFlag.agreed).
import signal

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


class StopFlag:
    def __init__(self):
        self.requested = False

    def install(self):
        signal.signal(signal.SIGTERM, self._handler)
        return self

    def _handler(self, signum, frame):
        self.requested = True

    def agreed(self):
        """True on every rank if any rank was asked to stop."""
        if not (dist.is_available() and dist.is_initialized()):
            return self.requested
        t = torch.tensor([1 if self.requested else 0], dtype=torch.int32)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        return bool(t.item())


def main():
    dist.init_process_group("gloo")
    model = DDP(torch.nn.Linear(4, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    stop = StopFlag().install()
    for step in range(100):
        loss = model(torch.randn(2, 4)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if stop.agreed():
            break
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
