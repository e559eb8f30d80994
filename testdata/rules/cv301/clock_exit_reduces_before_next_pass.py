# A rank whose own clock passes the limit reduces its loss and returns;
# the others go round once more first, and their DDP backward reduces the
# gradients while that rank reduces its loss.
import time

import torch
import torch.distributed as dist


def train_epoch(loader, model, time_limit=1.0):
    start = time.time()
    total = 0.0
    for batch in loader:
        loss = model(batch).sum()
        loss.backward()  # want CV301 "leave early"
        total += loss.item()
        if time.time() - start > time_limit:
            t = torch.tensor(total).cuda()
            dist.all_reduce(t)
            return t.item()
    t = torch.tensor(total).cuda()
    dist.all_reduce(t)
    return t.item()


if __name__ == "__main__":
    dist.init_process_group("nccl")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(8, 8).cuda())
    train_epoch([torch.randn(4, 8).cuda() for _ in range(10)], model)
