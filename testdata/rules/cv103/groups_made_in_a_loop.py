# M2 and M3 as they are usually written: the groups come from a loop or a
# comprehension, one per thread, and the threads from another. One
# abstract group stands for all of them; each thread drives its own device
# communicator.
import threading

import torch.distributed as dist

NUM = 4
groups = [dist.new_group(list(range(dist.get_world_size()))) for _ in range(NUM)]


def worker(i, t):
    dist.broadcast(t, src=0, group=groups[i])  # want CV103 "a group created once per loop iteration or thread"


def per_thread_group(t):
    # The group is created inside the thread's own function.
    own = dist.new_group(backend="nccl")
    dist.all_reduce(t, group=own)  # want CV103 "a group created once per loop iteration or thread"


def main(ts):
    threads = [threading.Thread(target=worker, args=(i, ts[i])) for i in range(NUM)]
    for th in threads:
        th.start()
    for i in range(NUM):
        threading.Thread(target=per_thread_group, args=(ts[i],)).start()
