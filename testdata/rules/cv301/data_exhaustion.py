# R12 (horovod/horovod#2107): a loop that ends when this rank's iterator
# runs out. Ranks holding fewer batches leave first; the others wait in the
# next all-reduce for them.
import torch
import torch.distributed as dist


def evaluate(model, shard_iter):
    total = torch.zeros(1)
    while True:
        try:
            batch = next(shard_iter)
        except StopIteration:
            break
        loss = model(batch).sum().detach()
        dist.all_reduce(loss)  # want CV301 "runs only on the ranks whose data has not run out"
        total += loss
    return total


def train(model, loader, opt):
    it = iter(loader)
    for step in range(1000):
        try:
            x, y = it.__next__()
        except (StopIteration, KeyError):
            return step
        loss = model(x).sum()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)  # want CV301 "has-more-data flag"
        opt.step()


def evaluate_sentinel(model, shard_iter):
    # The same end of this rank's data, written with a default for next()
    # (finetrainers' validation loop).
    total = torch.zeros(1)
    while True:
        batch = next(shard_iter, None)
        if batch is None:
            break
        loss = model(batch).sum().detach()
        dist.all_reduce(loss)  # want CV301 "runs only on the ranks whose data has not run out"
        total += loss
    return total
