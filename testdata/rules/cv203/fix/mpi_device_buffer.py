import cupy as cp
import torch
from mpi4py import MPI

comm = MPI.COMM_WORLD


def reduce(n):
    sendbuf = cp.arange(n, dtype=cp.float32) * 2
    recvbuf = cp.empty_like(sendbuf)
    comm.Allreduce(sendbuf, recvbuf, op=MPI.SUM)  # want CV203 "passed to Comm.Allreduce"
    return recvbuf


def tensor(n):
    t = torch.randn(n, device="cuda")
    comm.Bcast(t, root=0)  # want CV203 "passed to Comm.Bcast"
    return t
