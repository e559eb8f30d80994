# The same worker, but the launcher may also point args.dist_url at a
# remote host: then the workers may run on several hosts, whose file
# systems can answer the resume check differently.
import os
import random
from pathlib import Path

import torch
import torch.distributed as dist


def main(args):
    if args.multi_node:
        args.dist_url = os.environ["DIST_URL"]
    else:
        args.dist_url = f"tcp://localhost:{random.randrange(49152, 65535)}"
    torch.multiprocessing.spawn(main_worker, (args,), torch.cuda.device_count())


def main_worker(gpu, args):
    dist.init_process_group(backend="nccl", init_method=args.dist_url, world_size=args.world_size, rank=gpu)
    start_epoch = 0
    if (Path(args.exp_dir) / "checkpoint.pth").is_file():
        start_epoch = torch.load(Path(args.exp_dir) / "checkpoint.pth", map_location="cpu")["epoch"]
    t = torch.ones(1, device="cuda")
    for epoch in range(start_epoch, 100):
        dist.all_reduce(t)  # want CV301 "file system"
