# Megatron's pipeline schedule node shape: gradients made on the node's
# stream are handed to the default stream's allocator bookkeeping with
# record_stream, element by element. Iterating the tuple reads no device
# memory, and record_stream is the protection itself.
import torch


class Node:
    def __init__(self, fn):
        self.stream = torch.cuda.Stream()
        self.fn = fn

    def backward(self, outputs, output_grad):
        with torch.cuda.stream(self.stream):
            output_grad = self.fn(outputs, output_grad)
        for g in output_grad:
            g.record_stream(self.stream)
        return None
