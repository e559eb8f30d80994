# A loss scaler handed the loss of a model no process group wraps, or a
# helper that runs backward on a loss of its own making: skipping them
# on some ranks skips no collective.
import torch
import torch.distributed as dist


class LocalScaler:
    def __call__(self, loss, optimizer):
        loss.backward()
        optimizer.step()


def warmup(optimizer):
    probe = torch.ones(1, requires_grad=True)
    probe.backward()
    optimizer.step()


def main(data):
    dist.init_process_group("gloo")
    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = LocalScaler()
    if dist.get_rank() == 0:
        for x in data:
            scaler(model(x).sum(), optimizer)
        warmup(optimizer)
