import threading

import torch.distributed as dist


def worker(group, t):
    dist.all_reduce(t, group=group)


def main(a, b):
    g1 = dist.new_group(backend="gloo")
    g2 = dist.new_group(backend="gloo")
    threading.Thread(target=worker, args=(g1, a)).start()
    threading.Thread(target=worker, args=(g2, b)).start()
