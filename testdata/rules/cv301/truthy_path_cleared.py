# A host that does not have the checkpoint clears the argument: the
# tests of its truth after that are each host's own.
from pathlib import Path

import torch.distributed as dist


def main(args):
    dist.init_process_group("nccl")
    if args.ckpt and not Path(args.ckpt).exists():
        args.ckpt = ""
    if args.ckpt:
        dist.barrier()  # want CV301 "file system"
