# The launcher builds a rendezvous URL on this machine and spawns one
# worker per local GPU with it (VICRegL's and Barlow Twins' evaluate.py):
# every rank sees the same file system, so the resume check agrees.
import random
from pathlib import Path

import torch
import torch.distributed as dist


def main():
    ngpus = torch.cuda.device_count()
    dist_url = f"tcp://localhost:{random.randrange(49152, 65535)}"
    torch.multiprocessing.spawn(main_worker, (ngpus, dist_url), ngpus)


def main_worker(gpu, world_size, dist_url):
    dist.init_process_group(backend="nccl", init_method=dist_url, world_size=world_size, rank=gpu)
    ckpt = Path("checkpoint.pth")
    start_epoch = torch.load(ckpt)["epoch"] if ckpt.is_file() else 0
    t = torch.ones(1, device="cuda")
    for epoch in range(start_epoch, 100):
        dist.all_reduce(t)


if __name__ == "__main__":
    main()
