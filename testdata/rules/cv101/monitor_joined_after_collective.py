# The same monitor, but the main thread reduces while it runs: two
# threads launch collectives on one group at once.
import threading

import torch
import torch.distributed as dist


def train(segments, stats):
    for _ in range(segments):

        def monitor():
            dist.all_reduce(torch.ones(1))  # want CV101 "all_reduce"

        mon = threading.Thread(target=monitor)
        mon.start()
        for s in stats:
            dist.all_reduce(s)
        mon.join()
