import threading

import torch.distributed as dist

import comm


def run(x):
    threading.Thread(target=comm.sync, args=(x,)).start()
    dist.broadcast(x, 0)
