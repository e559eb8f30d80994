import threading

import torch.distributed as dist


def report(loss):
    dist.all_reduce(loss)  # want CV101 "thread started at .*the main thread issues barrier"


def train(loss):
    threading.Thread(target=report, args=(loss,)).start()
    dist.barrier()
