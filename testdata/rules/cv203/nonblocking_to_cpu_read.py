# x.to("cpu", non_blocking=True) returns while the copy into pinned host
# memory still runs on its stream: a read on another stream (or on the
# host after the block) can see it unfinished.
import torch


class Evictor:
    def __init__(self):
        self.s = torch.cuda.Stream()

    def evict(self, vals):
        self.s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.s):
            vals_cpu = vals.to("cpu", non_blocking=True)
        return vals_cpu.sum()  # want CV203 "\"vals_cpu\" is written on self.s"
