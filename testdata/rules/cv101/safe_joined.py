import threading

import torch.distributed as dist


def warmup(t):
    dist.all_reduce(t)


def main(t):
    th = threading.Thread(target=warmup, args=(t,))
    th.start()
    th.join()
    dist.barrier()
