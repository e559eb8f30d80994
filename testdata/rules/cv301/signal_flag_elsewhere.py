# Flags a signal handler sets somewhere other than on its own instance:
# on the trainer it serves (Lightning's signal connector sets
# trainer._received_sigterm), or in a module global (a SLURM requeue
# script's `_sigterm_received`). Each rank's handler runs at its own
# step, so a rank that reads its flag alone saves (an all-gather inside)
# and leaves while the others go on to the next step's all-reduce.
import signal

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
        if _sigterm_received:
            save(model)  # want CV301 "reads a flag a signal handler sets"
            break


class SignalConnector:
    def __init__(self, trainer):
        self.trainer = trainer

    def register(self):
        signal.signal(signal.SIGTERM, self._sigterm_notifier)

    def _sigterm_notifier(self, signum, frame):
        self.trainer._received_sigterm = True


class Trainer:
    def __init__(self, model):
        self.model = model
        self._received_sigterm = False
        self.connector = SignalConnector(self)

    def fit(self, loader):
        self.connector.register()
        for batch in loader:
            loss = self.model(batch)
            dist.all_reduce(loss)
            if self._received_sigterm:
                save(self.model)  # want CV301 "reads a flag a signal handler sets"
                break


class Loop:
    def __init__(self, trainer):
        self.trainer = trainer

    def run(self, loader):
        for batch in loader:
            if self.trainer._received_sigterm:
                save(self.trainer.model)
                return
            dist.all_reduce(self.trainer.model(batch))  # want CV301 "runs only on the ranks that do not leave early .* reads a flag a signal handler sets"


def main(model, loader):
    trainer = Trainer(model)
    trainer.fit(loader)
    Loop(trainer).run(loader)
