# fairscale's use_stream(): a @contextmanager of the program that enters
# torch.cuda.stream() around its yield. The body of `with use_stream(s)`
# runs on s, so the all-reduce there reads grad, written on the current
# stream, with no wait either way.
from contextlib import contextmanager

import torch
import torch.distributed as dist


def as_cuda(stream):
    return stream


@contextmanager
def use_stream(stream):
    if not stream:
        yield
        return
    with torch.cuda.stream(as_cuda(stream)):
        yield


def step(model, batch, side):
    grad = model(batch)
    with use_stream(side):
        dist.all_reduce(grad)  # want CV203 "\"grad\" is written on the current stream .* used by all_reduce here on side"
    return grad * 2  # want CV203 "\"grad\" is written on side"
