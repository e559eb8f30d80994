# The Hugging Face / DeepSpeed script idiom: local_rank == -1 means "not
# launched distributed", the same answer on every rank.
import argparse

import torch.distributed as dist


def setup():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    args = parser.parse_args()
    if args.local_rank != -1:
        dist.init_process_group("nccl")
        dist.barrier()
    return args
