# A variable that held the current stream and is then rebound to another
# stream no longer names the current stream: waiting on it does not order
# the compute stream's write.
import torch


def pack(x, other):
    side = torch.cuda.Stream()
    y = x * 2
    s = torch.cuda.current_stream()
    s = other
    with torch.cuda.stream(side):
        side.wait_stream(s)
        z = y + 1  # want CV203 "\"y\" is written on the current stream"
    torch.cuda.current_stream().wait_stream(side)
    return z
