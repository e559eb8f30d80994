# Unsafe: the threads are started in the loop and joined only after it, so
# they run at the same time and all use WORLD.
import threading

import torch.distributed as dist


def warmup(t):
    dist.all_reduce(t)  # want CV101 "several threads at once"


def main(t, iters):
    threads = []
    for _ in range(iters):
        th = threading.Thread(target=warmup, args=(t,))
        th.start()
        threads.append(th)
    for th in threads:
        th.join()
