# Two streams made in one statement are two streams.
import torch
from vllm.distributed.device_communicators.pynccl import PyNcclCommunicator


def f(a, b, pg, device):
    comm = PyNcclCommunicator(pg, device=device)
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    with torch.cuda.stream(s1):
        comm.broadcast(a, src=0)
    with torch.cuda.stream(s2):
        comm.broadcast(b, src=0)  # want CV201 "broadcast"
