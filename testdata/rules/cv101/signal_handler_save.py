# A preemption handler that saves a checkpoint: Python runs it on the main
# thread wherever the signal finds it, a different step on each rank, so
# its gather falls between different collectives on each rank.
import signal
import sys

import torch
import torch.distributed as dist


class Trainer:
    def __init__(self, model):
        self.model = model
        signal.signal(signal.SIGUSR1, self.on_preempt)

    def on_preempt(self, signum, frame):
        state = [None] * dist.get_world_size()
        dist.all_gather_object(state, self.model.state_dict())  # want CV101 "signal handler installed at .* wherever the signal finds it"
        if dist.get_rank() == 0:
            torch.save(state, "preempt.pt")
        sys.exit(0)

    def fit(self, loader):
        for batch in loader:
            loss = self.model(batch)
            dist.all_reduce(loss)
