# A helper whose every return is a list of constants (or an empty one)
# hands back Python values, even when called on a side stream: nothing
# for the current stream to wait for.
import torch


def pick(n):
    if n == 0:
        return []
    return [1, 2]


def run(x, n):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        idx = pick(n)
    return x[idx]
