# Bookkeeping around a side stream (DeepSpeed ZeRO-3's parameter
# coordinator): counts, sizes and labels are Python values on the host,
# not tensors, so reading them under another stream crosses nothing.
import torch


class Coordinator:
    def __init__(self, profiler):
        self.stream = torch.cuda.Stream()
        self.profiler = profiler
        self.available = 0

    def prefetch(self, params, forward):
        numel = 0
        for p in params:
            numel += p.ds_numel
        count = len(params)
        shape = params[0].shape
        label = f"allgather {count}"
        with torch.cuda.stream(self.stream):
            self.profiler.start_event(label, count, shape)
            self.profiler.stop_event(label, numel)
        self.available += numel
