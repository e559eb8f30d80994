# A pipelined loop that alternates the stream each step works on
# (torch's symmetric-memory all-gather-and-consume): the side stream
# waited the current stream after x was written, so whichever stream a
# step picks, x's write is ordered before the copy.
import torch


def pipelined(x, out, n):
    x.mul_(2)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    for step in range(1, n):
        if step % 2 == 0:
            stream = torch.cuda.current_stream()
        else:
            stream = side
        with torch.cuda.stream(stream):
            out[step].copy_(x)
    torch.cuda.current_stream().wait_stream(side)
    return out.sum()


def same_either_way(x, out):
    side = torch.cuda.Stream()
    x.mul_(2)
    side.wait_stream(torch.cuda.current_stream())
    if x.is_cuda:
        stream = side
    else:
        stream = side
    with torch.cuda.stream(stream):
        out.copy_(x)
    torch.cuda.current_stream().wait_stream(side)
