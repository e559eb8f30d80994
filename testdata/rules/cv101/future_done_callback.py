# A callback added to an executor's future runs on the worker thread that
# completes it, while the main thread goes on with its own collectives.
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist

pool = ThreadPoolExecutor(max_workers=1)


def write(state, path):
    torch.save(state, path)


def announce(fut):
    dist.barrier()  # want CV101 "barrier on the default group"


def save_async(state, path, loss):
    fut = pool.submit(write, state, path)
    fut.add_done_callback(announce)
    dist.all_reduce(loss)
