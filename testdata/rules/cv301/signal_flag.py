# A preemption handler that records the signal, read by each rank on its
# own: ranks receive the signal at different steps, so the first to see it
# saves (an all-gather inside) and leaves while the others go on to the
# next step's all-reduce. Megatron's DistributedSignalHandler all-gathers
# the flag first; a copy that returns the local flag does not.
import signal

import torch
import torch.distributed as dist


class LocalSignalHandler:
    def __init__(self, sig=signal.SIGTERM):
        self.sig = sig

    def signals_received(self):
        return self._signal_received

    def __enter__(self):
        self._signal_received = False

        def handler(signum, frame):
            self._signal_received = True

        signal.signal(self.sig, handler)
        return self

    def __exit__(self, *exc):
        return False


def save(model):
    state = [None] * dist.get_world_size()
    dist.all_gather_object(state, model.state_dict())


def train(model, loader):
    with LocalSignalHandler() as handler:
        for batch in loader:
            loss = model(batch)
            dist.all_reduce(loss)
            if handler.signals_received():
                save(model)  # want CV301 "reads a flag a signal handler sets"
                break


class Trainer:
    def __init__(self, model):
        self.model = model
        self.preempted = False
        signal.signal(signal.SIGUSR1, self.on_preempt)

    def on_preempt(self, signum, frame):
        self.preempted = True

    def fit(self, loader):
        for batch in loader:
            if self.preempted:
                return
            loss = self.model(batch)
            dist.all_reduce(loss)  # want CV301 "runs only on the ranks that do not leave early"
