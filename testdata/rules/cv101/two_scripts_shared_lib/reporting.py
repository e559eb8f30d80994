import threading

import torch.distributed as dist


def report(x):
    dist.all_reduce(x)  # want CV101 "all_reduce on the default group .* thread started at"


def start_reporter(x):
    t = threading.Thread(target=report, args=(x,))
    t.start()
    return t
