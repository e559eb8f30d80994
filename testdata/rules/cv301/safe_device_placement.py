# Where a value is placed does not make it rank-dependent: a checkpoint
# loaded onto this rank's GPU holds the same step on every rank (nanoGPT's
# train.py resumes this way, then may stop before training).
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

local_rank = int(os.environ["LOCAL_RANK"])
device = f"cuda:{local_rank}"
checkpoint = torch.load("ckpt.pt", map_location=device)
iter_num = checkpoint["iter_num"]
steps = torch.tensor(checkpoint["steps"]).to(device)


def train(net, batches, eval_only):
    global iter_num
    model = DDP(net, device_ids=[local_rank])
    for x in batches:
        if iter_num == 0 and eval_only:
            break
        if steps.sum() > 10:
            return
        model(x).sum().backward()
        iter_num += 1
