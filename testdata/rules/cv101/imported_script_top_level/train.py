# This module calls main() at import time, outside any __main__ block:
# the second entry point, importing it, runs main on its main thread too.
import torch
import torch.distributed as dist


def main():
    if not dist.is_initialized():
        dist.init_process_group("nccl")
    x = torch.ones(1).cuda()
    for _ in range(10):
        dist.all_reduce(x)  # want CV101 "all_reduce"


main()
