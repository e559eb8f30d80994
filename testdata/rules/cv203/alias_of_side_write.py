# Another name for a tensor is the same tensor: the element, the list
# that holds it and the selection over that list carry the side stream's
# write to wherever they are read.
import torch


def alias(fn, x):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        y = fn(x)
    z = y
    return z * 2  # want CV203 "\"z\" is written on side"


def in_list(fn, x):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        y = fn(x)
    pair = [x, y]
    return pair[1] + 1  # want CV203 "\"pair\" is written on side"


def selected(fn, xs):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        ys = fn(xs)
    kept = [t for t in ys if t is not None]
    for group in [kept]:
        group[0].mul_(2)  # want CV203 "\"group\" is written on side"
