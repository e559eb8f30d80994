# The same tests, with the device bound before the barrier (or before the
# group is made).
import os

import torch
import torch.distributed

local_rank = int(os.environ["LOCAL_RANK"])


def main(args):
    if args.device == "cuda":
        torch.distributed.init_process_group(backend="nccl")
    else:
        torch.distributed.init_process_group(backend="gloo")
    if args.device == "cuda":
        torch.cuda.set_device(local_rank)
    torch.distributed.barrier()


def bound_first(args):
    if args.device == "cuda":
        torch.cuda.set_device(local_rank)
        torch.distributed.init_process_group(backend="nccl")
    torch.distributed.barrier()
