# The launcher hands the worker this machine's URL on one path and the
# head node's on the other: the ranks may run on several hosts.
import os
from pathlib import Path

import torch
import torch.distributed as dist


def main():
    dist_url = "tcp://localhost:23456"
    if os.environ.get("HEAD_NODE"):
        dist_url = "tcp://%s:23456" % os.environ["HEAD_NODE"]
    torch.multiprocessing.spawn(main_worker, (4, dist_url), 4)


def main_worker(gpu, world_size, dist_url):
    dist.init_process_group(backend="nccl", init_method=dist_url, world_size=world_size, rank=gpu)
    ckpt = Path("checkpoint.pth")
    start_epoch = torch.load(ckpt)["epoch"] if ckpt.is_file() else 0
    t = torch.ones(1, device="cuda")
    for epoch in range(start_epoch, 100):
        dist.all_reduce(t)  # want CV301 "file system check of this host"


if __name__ == "__main__":
    main()
