# A comparison reads the value it tests on the current stream (a race
# with the side stream that computed it) and syncs only that value: the
# buffer written next to it is still pending when the current stream
# reads it. A comprehension's own variable does not hide a read of the
# list it walks.
import torch


def step(flags, buf, side):
    with torch.cuda.stream(side):
        count = flags.sum()
        buf.copy_(flags, non_blocking=True)
    if count > 0:  # want CV203 "\"count\" is written on side .* read here on the current stream"
        return buf * 2  # want CV203 "\"buf\" is written on side"
    return None


def scaled(fn, xs, side):
    with torch.cuda.stream(side):
        grads = fn(xs)
    g = None
    return [g * 2 for g in grads]  # want CV203 "\"grads\" is written on side"
