# The rendezvous URL is a local that names this machine (a literal, an
# f-string with the port filled in): every rank runs here and asks one
# file system, so the resume check is answered alike on every rank
# (SphereFormer's spawned workers).
import os

import torch
import torch.distributed as dist


def main_worker(gpu, args):
    url = "tcp://127.0.0.1:23456"
    dist.init_process_group(backend="nccl", init_method=url, world_size=args.world_size, rank=gpu)
    start_epoch = 0
    if os.path.isfile(args.resume):
        start_epoch = torch.load(args.resume, map_location="cpu")["epoch"]
    t = torch.ones(1, device="cuda")
    for epoch in range(start_epoch, args.epochs):
        dist.all_reduce(t)


def eval_worker(gpu, args, port):
    dist.init_process_group(backend="nccl", init_method=f"tcp://localhost:{port}", world_size=args.world_size, rank=gpu)
    if os.path.exists(args.stop_file):
        dist.barrier()
