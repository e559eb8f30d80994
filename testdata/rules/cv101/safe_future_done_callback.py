# The done-callback only records the result; the collective that follows
# the save is issued by the main thread once the future has finished.
import logging
import threading
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist

log = logging.getLogger(__name__)
pool = ThreadPoolExecutor(max_workers=1)
saved = threading.Event()


def write(state, path):
    torch.save(state, path)


def announce(fut):
    log.info("checkpoint written")
    saved.set()


def save_async(state, path, loss):
    fut = pool.submit(write, state, path)
    fut.add_done_callback(announce)
    dist.all_reduce(loss)
    fut.result()
    dist.barrier()
