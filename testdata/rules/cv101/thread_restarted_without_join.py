# The replacement worker is started while the old one may still run:
# two threads issue all-reduces on one group, in an order that can
# differ between ranks.
import threading

import torch
import torch.distributed as dist


class Controller:
    def __init__(self, ranks):
        self.group = dist.new_group(ranks, backend="gloo")
        self.stop_event = threading.Event()
        self.prefetch_thread = threading.Thread(target=self.prefetch, daemon=True)
        self.prefetch_thread.start()

    def prefetch(self):
        while not self.stop_event.is_set():
            hits = torch.tensor(0)
            dist.all_reduce(hits, group=self.group)  # want CV101 "all_reduce on group .* from a thread started at .*:14"

    def reset(self):
        self.stop_event.set()
        self.prefetch_thread = threading.Thread(target=self.prefetch, daemon=True)
        self.prefetch_thread.start()
