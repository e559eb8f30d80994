# A method's result, reduced on a side stream, is filed in a list and
# turned into views for the grads (apex DDP's retained buffers); the
# stream is waited before the grads are read, elsewhere.
import torch
import torch.distributed as dist
from torch._utils import _unflatten_dense_tensors as unflatten


class DDP:
    def __init__(self, n):
        self.stream = torch.cuda.Stream()
        self.buffers = [None] * n

    def reduce_bucket(self, flat):
        with torch.cuda.stream(self.stream):
            dist.all_reduce(flat)
            flat.record_stream(self.stream)
            return flat

    def retain(self, flat, bucket, i):
        reduced = self.reduce_bucket(flat)
        self.buffers[i] = reduced
        for view, grad in zip(unflatten(reduced, bucket), bucket):
            grad.data = view
