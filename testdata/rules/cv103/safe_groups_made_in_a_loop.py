# Groups made in a loop but driven from one thread, or gloo groups (host
# communicators) one per thread.
import threading

import torch.distributed as dist

NUM = 4
groups = [dist.new_group(list(range(dist.get_world_size()))) for _ in range(NUM)]
host_groups = [dist.new_group(backend="gloo") for _ in range(NUM)]


def one_thread(ts):
    for i in range(NUM):
        dist.broadcast(ts[i], src=0, group=groups[i])


def host_worker(i, t):
    dist.all_reduce(t, group=host_groups[i])


def main(ts):
    one_thread(ts)
    threads = [threading.Thread(target=host_worker, args=(i, ts[i])) for i in range(NUM)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
