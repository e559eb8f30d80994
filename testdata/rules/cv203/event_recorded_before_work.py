# An event orders only the work enqueued on its stream before it was
# recorded: recorded before the swap copy, waiting it orders nothing
# (DistServe's swap event), and the read may see the blocks mid-copy.
import torch


class Worker:
    def __init__(self, k_cache, k_swap):
        self.k_cache = k_cache
        self.k_swap = k_swap
        self.swap_in_stream = torch.cuda.Stream()

    def swap_in_then_step(self, src, dst):
        event = torch.cuda.Event()
        event.record(self.swap_in_stream)
        with torch.cuda.stream(self.swap_in_stream):
            self.k_cache[dst].copy_(self.k_swap[src], non_blocking=True)
        torch.cuda.current_stream().wait_event(event)
        return self.k_cache.sum()  # want CV203 "self.k_cache"
