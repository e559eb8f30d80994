# The test changes from pass to pass: an odd pass reads on the current
# stream what the even pass before it reduced on the side stream.
import torch
import torch.distributed as dist


def exchange(buf, s, n):
    out = []
    for i in range(n):
        if i % 2 == 0:
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                dist.all_reduce(buf)
        else:
            out.append(buf * 2)  # want CV203 "\"buf\" is written on s"
    torch.cuda.current_stream().wait_stream(s)
    return out


def exchange_flag(buf, s, n, state):
    out = []
    for i in range(n):
        if state.side:
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                dist.all_reduce(buf)
        else:
            out.append(buf * 2)  # want CV203 "\"buf\" is written on s"
        state.flip()
    torch.cuda.current_stream().wait_stream(s)
    return out
