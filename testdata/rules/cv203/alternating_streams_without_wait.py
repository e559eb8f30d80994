# The same pipelined loop without side.wait_stream(current): on the steps
# that pick the side stream, the copy can read x before mul_ finishes.
import torch


def pipelined(x, out, n):
    x.mul_(2)
    side = torch.cuda.Stream()
    for step in range(1, n):
        if step % 2 == 0:
            stream = torch.cuda.current_stream()
        else:
            stream = side
        with torch.cuda.stream(stream):
            out[step].copy_(x)  # want CV203 "\"x\" is written on the current stream .* read here on stream"
    torch.cuda.current_stream().wait_stream(side)


def written_on_either(x, out, n):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    if n % 2 == 0:
        stream = torch.cuda.current_stream()
    else:
        stream = side
    with torch.cuda.stream(stream):
        out.mul_(2)
    return out.sum()  # want CV203 "\"out\" is written on stream"
