# The stream helpers of a pipeline library (fairscale's nn/pipe/stream.py
# shape), in a module of their own.
from contextlib import contextmanager

import torch


def as_cuda(stream):
    return stream


@contextmanager
def use_stream(stream):
    """torch.cuda.stream for either a CPU or a CUDA stream."""
    if not stream:
        yield
        return
    with torch.cuda.stream(as_cuda(stream)):
        yield
