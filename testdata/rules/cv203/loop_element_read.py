# Iterating a tuple made on a side stream binds each element to what the
# side stream wrote: reading one on the default stream without a
# wait_stream is the cross-stream read, whatever the loop variable's name.
import torch


def scale(fn, xs):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        grads = fn(xs)
    out = []
    for g in grads:
        out.append(g * 2)  # want CV203 "\"g\" is written on side"
    return out
