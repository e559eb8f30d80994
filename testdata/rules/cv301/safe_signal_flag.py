# Megatron's DistributedSignalHandler: the handler records the signal, and
# signals_received() all-gathers every rank's flag, so all ranks take the
# same decision at the same step.
import signal

import torch
import torch.distributed as dist


def all_gather_item(item, dtype):
    tensor = torch.tensor([item], dtype=dtype)
    output = [torch.zeros(1, dtype=dtype) for _ in range(dist.get_world_size())]
    dist.all_gather(output, tensor)
    return [t.item() for t in output]


class DistributedSignalHandler:
    def __init__(self, sig=signal.SIGTERM):
        self.sig = sig

    def signals_received(self):
        all_received = all_gather_item(self._signal_received, dtype=torch.int32)
        return all_received

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
    with DistributedSignalHandler() as handler:
        for batch in loader:
            loss = model(batch)
            dist.all_reduce(loss)
            if any(handler.signals_received()):
                save(model)
                break


class Other:
    # A class without a signal handler: its own `preempted` attribute is
    # an ordinary value.
    def __init__(self):
        self.preempted = False

    def step(self, t):
        if not self.preempted:
            dist.all_reduce(t)
