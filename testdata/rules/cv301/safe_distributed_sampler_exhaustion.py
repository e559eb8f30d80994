# torchtune's recipes: the loop leaves when the iterator runs out, but the
# loader's DistributedSampler gives every rank as many samples (it pads or
# drops to even them), so the ranks run out together.
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler


class Recipe:
    def train(self, epochs, steps_per_epoch):
        for epoch in range(epochs):
            self._dataloader.sampler.set_epoch(epoch)
            it = iter(self._dataloader)
            step = 0
            while step < steps_per_epoch:
                try:
                    batch = next(it)
                except StopIteration:
                    break
                loss = self._loss_step(batch)
                loss.backward()
                dist.all_reduce(loss)
                step += 1


def evaluate(model, dataset, rank, world):
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank)
    loader = DataLoader(dataset, batch_size=8, sampler=sampler)
    it = iter(loader)
    total = torch.zeros(1)
    while True:
        try:
            batch = next(it)
        except StopIteration:
            break
        loss = model(batch).sum().detach()
        dist.all_reduce(loss)
        total += loss
    return total


def evaluate_sentinel(model, dataset, rank, world):
    # next() with a default over an evenly sharded loader: the ranks run
    # out together.
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank)
    loader = DataLoader(dataset, batch_size=8, sampler=sampler)
    it = iter(loader)
    total = torch.zeros(1)
    while True:
        batch = next(it, None)
        if batch is None:
            break
        loss = model(batch).sum().detach()
        dist.all_reduce(loss)
        total += loss
    return total


def config_value(cfg, t):
    # A default for next() over a list of settings, not this rank's data.
    for _ in range(3):
        opt = next(iter(cfg.options), None)
        dist.all_reduce(t)
        if opt is None:
            continue
