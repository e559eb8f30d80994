# The main thread's barrier comes before it waits for the reporting
# thread: the two can issue their collectives in either order.
import threading

import torch
import torch.distributed as dist


def report(x):
    dist.all_reduce(x)  # want CV101 "all_reduce"


def main():
    dist.init_process_group("nccl")
    x = torch.ones(1, device="cuda")
    t = threading.Thread(target=report, args=(x,))
    t.start()
    dist.barrier()
    t.join()
