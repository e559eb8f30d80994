# The launcher makes a local URL only for "auto" and otherwise passes on
# the URL its caller gave, which may name another machine (SoundStorm's
# launch(fn, n_gpu_per_machine, n_machine, dist_url=…)).
from pathlib import Path

import torch
import torch.distributed as dist


def launch(n_gpu, dist_url=None):
    if dist_url == "auto":
        dist_url = "tcp://127.0.0.1:29500"
    torch.multiprocessing.spawn(worker, (n_gpu, dist_url), n_gpu)


def worker(gpu, world_size, dist_url):
    dist.init_process_group(backend="nccl", init_method=dist_url, world_size=world_size, rank=gpu)
    ckpt = Path("checkpoint.pth")
    start_epoch = torch.load(ckpt)["epoch"] if ckpt.is_file() else 0
    t = torch.ones(1, device="cuda")
    for epoch in range(start_epoch, 100):
        dist.all_reduce(t)  # want CV301 "file system check of this host"
