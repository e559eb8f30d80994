# Elements of a list written on a side stream, read through zip on the
# current stream without a wait.
import torch


def scale_all(fn, xs, ys):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        grads = fn(xs)
    out = []
    for g, y in zip(grads, ys):
        out.append(g * y)  # want CV203 "\"g\" is written on side"
    return out
