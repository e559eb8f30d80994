# The same handler re-raises after saving: the rank dies with an error,
# and the launcher stops every rank.
import logging
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def train():
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group(backend="nccl")
    model = DistributedDataParallel(torch.nn.Linear(4, 4).cuda(), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    try:
        for step in range(1000):
            loss = model(torch.randn(8, 4).cuda()).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
    except (Exception, KeyboardInterrupt) as e:
        logging.error(e, exc_info=True)
        torch.save(model.module.state_dict(), "checkpoint.pth")
        raise


if __name__ == "__main__":
    train()
