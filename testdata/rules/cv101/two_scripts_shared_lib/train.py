# This script starts the reporting thread of a module it imports and
# then all-reduces on the main thread: one process, two threads.
import torch
import torch.distributed as dist

from reporting import start_reporter


def main():
    dist.init_process_group("nccl")
    loss = torch.ones(1)
    start_reporter(loss)
    dist.all_reduce(loss)


if __name__ == "__main__":
    main()
