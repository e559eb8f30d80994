# Safe: each worker thread is started and joined inside one loop iteration,
# so the threads run one after another and the main thread communicates only
# after each has ended (testdata/witness/safe_thread_joined.py).
import threading

import torch.distributed as dist


def warmup(t):
    dist.all_reduce(t)


def main(t, iters):
    for _ in range(iters):
        th = threading.Thread(target=warmup, args=(t,))
        th.start()
        th.join()
        dist.all_reduce(t)
