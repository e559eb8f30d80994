import torch
import torch.distributed as dist


def step(f, x):
    s1 = torch.cuda.Stream()
    s2 = torch.cuda.Stream()
    s1.wait_stream(torch.cuda.current_stream())
    s2.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s1):
        y = f(x)
    with torch.cuda.stream(s2):
        dist.all_reduce(y)  # want CV203 "\"y\" is written on s1"
    torch.cuda.current_stream().wait_stream(s2)
