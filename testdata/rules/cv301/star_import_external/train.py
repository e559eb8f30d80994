# `torch` bound only by a star import from a module outside the analysed
# tree (LucaOne's trainer: `from common.multi_task_loss import *`, with
# sys.path set by hand). The module imports parts of torch itself, so the
# name is the torch package, and the DDP model below is one.
import sys

import torch.distributed as dist
from torch.optim import AdamW

sys.path.append("..")
from common.multi_task_loss import *  # noqa: F403


def train(args, model, loader, dev_loader):
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[args.local_rank])
    opt = AdamW(model.parameters())
    for _ in range(args.epochs):
        for batch in loader:
            loss = model(batch).sum()
            loss.backward()
            opt.step()
        if args.local_rank in [0, -1]:
            with torch.no_grad():
                model(next(iter(dev_loader)))  # want CV301 "local_rank in \[0, -1\]"
        dist.barrier()
