# The same bookkeeping kept in a device tensor: the decrement is a kernel
# on the reload stream, and the test reads it on the current stream.
import torch


class OffloadHandler:
    def __init__(self, layers):
        self.h2d_stream = torch.cuda.Stream()
        self.offload_count_per_layer = torch.zeros(layers, dtype=torch.int64, device="cuda")

    def bulk_reload_group(self, group):
        with torch.cuda.stream(self.h2d_stream):
            self.offload_count_per_layer[group] -= 1
        if self.offload_count_per_layer[group] == 0:  # want CV203 "\"self.offload_count_per_layer\" is written on self.h2d_stream"
            self.last_reloaded = group
