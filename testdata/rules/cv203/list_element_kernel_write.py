# An element of a list written by a kernel on the current stream, then
# read on a side stream with no wait_stream.
import torch


def scaled(xs, side):
    outs = [None] * len(xs)
    for i, x in enumerate(xs):
        outs[i] = x * 2
        with torch.cuda.stream(side):
            outs[i] = outs[i] + 1  # want CV203 "\"outs\" is written on the current stream"
    torch.cuda.current_stream().wait_stream(side)
    return outs
