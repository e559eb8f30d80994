# The ranks agree on the end of the data before leaving, restart the
# iterator instead of leaving, or leave where no collective follows.
import torch
import torch.distributed as dist


def evaluate(model, shard_iter):
    total = torch.zeros(1)
    while True:
        try:
            batch = next(shard_iter)
            more = torch.ones(1)
        except StopIteration:
            batch = None
            more = torch.zeros(1)
        dist.all_reduce(more, op=dist.ReduceOp.MIN)
        if more.item() == 0:
            break
        loss = model(batch).sum().detach()
        dist.all_reduce(loss)
        total += loss
    return total


def train(model, loader, opt, steps):
    it = iter(loader)
    for _ in range(steps):
        try:
            x = next(it)
        except StopIteration:
            it = iter(loader)  # a new epoch: every rank runs `steps` steps
            x = next(it)
        model(x).sum().backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        opt.step()


def collect(source):
    # No collective after the loop's exit.
    out = []
    while True:
        try:
            out.append(next(source))
        except StopIteration:
            break
    dist.barrier()
    return out


def drain(gen, flag):
    # StopIteration from something other than next(): not the data's end.
    while True:
        try:
            gen.send(None)
        except StopIteration:
            break
        dist.all_reduce(flag)
