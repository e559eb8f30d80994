# The copy's stream is synchronised, or the copy is blocking, before the
# host tensor is read elsewhere.
import torch


class Evictor:
    def __init__(self):
        self.s = torch.cuda.Stream()

    def evict_synchronised(self, vals):
        self.s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.s):
            vals_cpu = vals.to("cpu", non_blocking=True)
        self.s.synchronize()
        return vals_cpu.sum()

    def evict_blocking(self, vals):
        self.s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.s):
            vals_cpu = vals.to("cpu")
        return vals_cpu.sum()

    def evict_waited(self, vals):
        self.s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.s):
            vals_cpu = vals.to("cpu", non_blocking=True)
        torch.cuda.current_stream().wait_stream(self.s)
        return vals_cpu.sum()
