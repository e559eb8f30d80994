# The whole training loop runs in a try whose handler catches any error,
# saves a checkpoint and returns; the script then ends with status 0
# (KAN-TTS's trainers). A rank whose step raises leaves "successfully",
# the launcher does not stop the job, and the other ranks wait for it in
# the gradient all-reduce.
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
            loss.backward()  # want CV301 "status 0"
            opt.step()
    except (Exception, KeyboardInterrupt) as e:
        logging.error(e, exc_info=True)
        torch.save(model.module.state_dict(), "checkpoint.pth")


if __name__ == "__main__":
    train()
