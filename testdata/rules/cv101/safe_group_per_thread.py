# One group per thread, made in a loop: no group is shared between threads
# (gloo groups, so CV103's device-communicator concern does not apply).
import threading

import torch.distributed as dist

NUM = 4
groups = [dist.new_group(backend="gloo") for _ in range(NUM)]


def worker(i, t):
    for _ in range(100):
        dist.all_reduce(t, group=groups[i])


def per_thread(t):
    own = dist.new_group(backend="gloo")
    dist.all_reduce(t, group=own)


def main(ts):
    threads = [threading.Thread(target=worker, args=(i, ts[i])) for i in range(NUM)]
    for th in threads:
        th.start()
    for i in range(NUM):
        threading.Thread(target=per_thread, args=(ts[i],)).start()
