# [None] * n is a Python list on the host: nothing is pending on it.
import torch


def run(model, x, n):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    ids = [None] * n
    flags = (False,) * n
    outs = []
    for i in range(n):
        with torch.cuda.stream(side):
            outs.append(model(x, ids[i], flags[i]))
    torch.cuda.current_stream().wait_stream(side)
    return outs
