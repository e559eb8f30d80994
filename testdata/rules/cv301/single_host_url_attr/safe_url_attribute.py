# The launcher puts a URL on this machine into args and spawns one
# worker per local GPU, which rendezvous on args.dist_url: every rank
# asks one file system, so the resume check is answered alike
# (VICRegL's evaluate.py).
import random
from pathlib import Path

import torch
import torch.distributed as dist


def main(args):
    args.ngpus_per_node = torch.cuda.device_count()
    args.dist_url = f"tcp://localhost:{random.randrange(49152, 65535)}"
    torch.multiprocessing.spawn(main_worker, (args,), args.ngpus_per_node)


def main_worker(gpu, args):
    dist.init_process_group(backend="nccl", init_method=args.dist_url, world_size=args.ngpus_per_node, rank=gpu)
    start_epoch = 0
    if (Path(args.exp_dir) / "checkpoint.pth").is_file():
        start_epoch = torch.load(Path(args.exp_dir) / "checkpoint.pth", map_location="cpu")["epoch"]
    t = torch.ones(1, device="cuda")
    for epoch in range(start_epoch, 100):
        dist.all_reduce(t)
