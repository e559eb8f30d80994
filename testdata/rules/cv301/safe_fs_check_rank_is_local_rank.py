# The process group is made with the local rank as the rank: local ranks
# are unique on one host only, so a job that meets at all has every rank
# on this host, and every rank's scan of the checkpoint directory sees
# the same files (speech-resynthesis's trainer).
import argparse
import glob
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def scan_checkpoint(cp_dir, prefix):
    cp_list = glob.glob(os.path.join(cp_dir, prefix + "????????"))
    if len(cp_list) == 0:
        return None
    return sorted(cp_list)[-1]


def train(rank, a):
    dist.init_process_group(backend="nccl", init_method="env://", rank=rank,
                            world_size=int(os.environ["WORLD_SIZE"]))
    device = torch.device("cuda:{:d}".format(rank))
    model = torch.nn.Linear(4, 4).to(device)
    steps = 0
    if os.path.isdir(a.checkpoint_path):
        cp = scan_checkpoint(a.checkpoint_path, "g_")
        if cp is not None:
            steps = torch.load(cp, map_location=device)["steps"] + 1
    model = DistributedDataParallel(model, device_ids=[rank])
    while steps < a.training_steps:
        model(torch.randn(8, 4, device=device)).sum().backward()
        steps += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint_path", default="cp")
    parser.add_argument("--training_steps", default=400000, type=int)
    parser.add_argument("--local_rank", default=0, type=int)
    a = parser.parse_args()
    if "WORLD_SIZE" in os.environ:
        rank = a.local_rank
    else:
        rank = 0
    train(rank, a)


if __name__ == "__main__":
    main()
