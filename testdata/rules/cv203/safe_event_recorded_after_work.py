# Recorded after the copy is enqueued, the event covers it.
import torch


class Worker:
    def __init__(self, k_cache, k_swap):
        self.k_cache = k_cache
        self.k_swap = k_swap
        self.swap_in_stream = torch.cuda.Stream()

    def swap_in_then_step(self, src, dst):
        event = torch.cuda.Event()
        with torch.cuda.stream(self.swap_in_stream):
            self.k_cache[dst].copy_(self.k_swap[src], non_blocking=True)
        event.record(self.swap_in_stream)
        torch.cuda.current_stream().wait_event(event)
        return self.k_cache.sum()

    def swap_in_recorded_inside(self, src, dst):
        event = torch.cuda.Event()
        with torch.cuda.stream(self.swap_in_stream):
            self.k_cache[dst].copy_(self.k_swap[src], non_blocking=True)
            event.record()
        torch.cuda.current_stream().wait_event(event)
        return self.k_cache.sum()
