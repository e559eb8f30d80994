# CUDA-aware MPI (mpi4py with CuPy arrays or CUDA tensors) reads and writes
# device memory itself, outside the stream the kernels ran on: a buffer a
# kernel is still writing can be sent before it is ready, or overwritten
# after MPI received into it (mpi4py's CUDA demo; pylops-mpi PR #182).
import cupy as cp
import torch
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def allreduce_fresh_kernel(n):
    sendbuf = cp.arange(n, dtype=cp.float32) * 2
    recvbuf = cp.empty_like(sendbuf)
    comm.Allreduce(sendbuf, recvbuf, op=MPI.SUM)  # want CV203 "\"sendbuf\" is written by device work on the current stream .* passed to Comm.Allreduce"
    return recvbuf


def send_buffer_spec(n):
    buf = cp.ones(n, dtype=cp.float64)
    buf *= rank
    comm.Send([buf, MPI.DOUBLE], dest=1, tag=7)  # want CV203 "\"buf\" is written by device work"


def receive_into_zeroed(n):
    # cupy.zeros launches a memset: MPI can write the message before it
    # runs, and the memset then wipes it.
    buf = cp.zeros(n, dtype=cp.float32)
    comm.Recv(buf, source=0, tag=7)  # want CV203 "\"buf\" is written by device work .* passed to Comm.Recv"
    return buf


def torch_tensor(n):
    t = torch.randn(n, device="cuda")
    comm.Bcast(t, root=0)  # want CV203 "\"t\" is written by device work"
    return t


def torch_blocking_upload(n):
    # Made on the host and moved with a blocking copy, which PyTorch
    # synchronises before returning: nothing is left to run.
    t = torch.randn(n).cuda()
    comm.Bcast(t, root=0)
    return t


def on_side_stream(n):
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        x = cp.random.rand(n)
    req = comm.Isend(x, dest=1)  # want CV203 "\"x\" is written by device work on s"
    req.Wait()


def filled(n, out):
    halo = cp.empty(n)
    halo.fill(0.0)
    comm.Sendrecv(halo, dest=1, recvbuf=out, source=1)  # want CV203 "\"halo\" is written by device work"
