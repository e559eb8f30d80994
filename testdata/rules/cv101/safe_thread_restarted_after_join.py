# sglang's cache controller: a worker thread kept in an attribute is
# stopped and joined before reset() starts its replacement, so the two
# threads never run at the same time on their group.
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
            dist.all_reduce(hits, group=self.group)

    def _stop(self):
        self.stop_event.set()
        self.prefetch_thread.join()

    def reset(self):
        self._stop()
        self.stop_event.clear()
        self.prefetch_thread = threading.Thread(target=self.prefetch, daemon=True)
        self.prefetch_thread.start()
