# The ranks agree on the flag before acting on it: the global is
# all-reduced (MAX) into a tensor every rank reads, and the trainer's flag
# goes through the strategy's reduce_boolean_decision. Names and
# attributes that only look like the flags are ordinary values.
import signal

import torch
import torch.distributed as dist

_sigterm_received = False


def _on_sigterm(signum, frame):
    global _sigterm_received
    _sigterm_received = True


def save(model):
    state = [None] * dist.get_world_size()
    dist.all_gather_object(state, model.state_dict())


def train(model, loader):
    signal.signal(signal.SIGTERM, _on_sigterm)
    for batch in loader:
        loss = model(batch)
        dist.all_reduce(loss)
        stop = torch.tensor(int(_sigterm_received))
        dist.all_reduce(stop, op=dist.ReduceOp.MAX)
        if stop.item():
            save(model)
            break


def evaluate(model, loader):
    # A local of the same name is not the global.
    _sigterm_received = False
    for batch in loader:
        if _sigterm_received:
            break
        dist.all_reduce(model(batch))


class SignalConnector:
    def __init__(self, trainer):
        self.trainer = trainer

    def register(self):
        signal.signal(signal.SIGTERM, self._sigterm_notifier)

    def _sigterm_notifier(self, signum, frame):
        self.trainer._received_sigterm = True


class Trainer:
    def __init__(self, model, strategy):
        self.model = model
        self.strategy = strategy
        self._received_sigterm = False
        self.connector = SignalConnector(self)

    def fit(self, loader):
        self.connector.register()
        for batch in loader:
            loss = self.model(batch)
            dist.all_reduce(loss)
            if self.strategy.reduce_boolean_decision(self._received_sigterm, all=False):
                save(self.model)
                break


class Validator:
    # Not the trainer: its own _received_sigterm is an ordinary value.
    def __init__(self):
        self._received_sigterm = False

    def run(self, model, loader):
        for batch in loader:
            if self._received_sigterm:
                return
            dist.all_reduce(model(batch))


def main(model, loader, strategy):
    Trainer(model, strategy).fit(loader)
