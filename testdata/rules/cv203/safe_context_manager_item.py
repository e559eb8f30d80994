# A context manager made on the current stream and entered as the second
# item of the stream's with: entering it reads no tensor.
from contextlib import contextmanager, nullcontext

import torch

_HANDLE = None


@contextmanager
def graph_capture():
    stream = torch.cuda.Stream()
    ctx = nullcontext() if _HANDLE is None else _HANDLE.capture()
    with torch.cuda.stream(stream), ctx:
        yield stream
