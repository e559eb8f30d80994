# A field stepped by a constant (`entry.num_views -= 1`) is a Python
# count: testing it under a side stream reads no device memory (NVIDIA's
# interleaved offload example's unpack hook).
from dataclasses import dataclass

import torch


@dataclass
class Packed:
    tensor: torch.Tensor
    num_views: int = 0


class Holder:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        self.packed = {}

    def unpack(self, key):
        entry = self.packed[key][0]
        try:
            return entry.tensor
        finally:
            entry.num_views -= 1
            with torch.cuda.stream(self.stream):
                if entry.num_views == 0:
                    del self.packed[key]
