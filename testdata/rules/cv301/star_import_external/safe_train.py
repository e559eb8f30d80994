# The same star import; every rank evaluates, and a name the module does
# not import a package of stays the star-imported module's own (an
# unknown external, not a collective).
import torch.distributed as dist

from common.multi_task_loss import *  # noqa: F403


def train(args, model, loader, dev_loader):
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[args.local_rank])
    for _ in range(args.epochs):
        for batch in loader:
            model(batch).sum().backward()
        with torch.no_grad():
            model(next(iter(dev_loader)))
        if args.local_rank in [0, -1]:
            all_reduce_metrics(args)
        dist.barrier()
