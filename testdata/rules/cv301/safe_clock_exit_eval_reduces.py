# Validation that stops at a time limit: every pass's forward runs under
# no_grad (DDP broadcasts its buffers only in the first), so the rank that
# leaves and the ones that go on next meet in an all_reduce of the loss.
import time

import torch
import torch.distributed as dist


@torch.no_grad()
def val_epoch(loader, model, time_limit=1.0):
    start = time.time()
    total = 0.0
    for i, batch in enumerate(loader):
        total += model(batch).sum().item()
        if time.time() - start > time_limit:
            t = torch.tensor(total / (i + 1)).cuda()
            dist.all_reduce(t)
            return t.item()
    t = torch.tensor(total / len(loader)).cuda()
    dist.all_reduce(t)
    return t.item()


if __name__ == "__main__":
    dist.init_process_group("nccl")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(8, 8).cuda())
    val_epoch([torch.randn(4, 8).cuda() for _ in range(10)], model)
