# The trainer makes the group with the local rank as the rank (every rank
# on this host), so its start-up checkpoint scan agrees on every rank;
# the vendored module's uncalled init wrapper does not change that.
import glob
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def train(local_rank, ckpt_dir, total):
    dist.init_process_group("nccl", rank=local_rank, world_size=int(os.environ["WORLD_SIZE"]))
    model = DistributedDataParallel(torch.nn.Linear(4, 4).cuda(), device_ids=[local_rank])
    steps = len(glob.glob(os.path.join(ckpt_dir, "g_*")))
    while steps < total:
        model(torch.randn(8, 4, device="cuda")).sum().backward()
        steps += 1


if __name__ == "__main__":
    train(int(os.environ["LOCAL_RANK"]), "cp", 1000)
