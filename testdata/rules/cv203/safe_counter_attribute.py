# Megatron's CPU offload handler counts the tensors of each layer in a
# defaultdict(int): decrementing a count under the reload stream is
# Python arithmetic, and testing it afterwards reads no device memory.
from collections import defaultdict

import torch


class OffloadHandler:
    def __init__(self):
        self.h2d_stream = torch.cuda.Stream()
        self.offload_count_per_layer = defaultdict(int)
        self.state = {}

    def bulk_reload_group(self, group):
        with torch.cuda.stream(self.h2d_stream):
            for label, saved in list(self.state.items()):
                if label[0] == group:
                    self.state[label] = saved.to("cuda", non_blocking=True)
                    self.offload_count_per_layer[group] -= 1
        if self.offload_count_per_layer[group] == 0:
            self.last_reloaded = group
