import torch
import torch.distributed as dist


def step(compute):
    comm = torch.cuda.Stream()
    torch.cuda.set_stream(comm)
    buf = compute()
    torch.cuda.set_stream(torch.cuda.default_stream())
    dist.all_reduce(buf)  # want CV203 "\"buf\" is written on comm"
