# The main thread waits for the reporting thread (after other work)
# before its own barrier: the thread's all_reduce is over by then.
import threading

import torch
import torch.distributed as dist


def report(x):
    dist.all_reduce(x)


def main():
    dist.init_process_group("nccl")
    x = torch.ones(1, device="cuda")
    t = threading.Thread(target=report, args=(x,))
    t.start()
    y = torch.zeros(1, device="cuda") + 1
    t.join()
    dist.barrier()
    dist.destroy_process_group()
