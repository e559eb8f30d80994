# The URL local names this machine on one path and the head node on the
# other: ranks on several hosts may each ask their own file system.
import os

import torch
import torch.distributed as dist


def main_worker(gpu, args):
    url = "tcp://127.0.0.1:23456"
    if args.multi_node:
        url = "tcp://%s:23456" % os.environ["HEAD_NODE"]
    dist.init_process_group(backend="nccl", init_method=url, world_size=args.world_size, rank=gpu)
    start_epoch = 0
    if os.path.isfile(args.resume):
        start_epoch = torch.load(args.resume, map_location="cpu")["epoch"]
    t = torch.ones(1, device="cuda")
    for epoch in range(start_epoch, args.epochs):
        dist.all_reduce(t)  # want CV301 "file system check of this host"
