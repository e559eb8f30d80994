# Two streams made in one statement, the second waiting on the first.
import torch
from vllm.distributed.device_communicators.pynccl import PyNcclCommunicator


def f(a, b, pg, device):
    comm = PyNcclCommunicator(pg, device=device)
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    with torch.cuda.stream(s1):
        comm.broadcast(a, src=0)
    s2.wait_stream(s1)
    with torch.cuda.stream(s2):
        comm.broadcast(b, src=0)
