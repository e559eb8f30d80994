# Device buffers handed to CUDA-aware MPI after the host has waited for
# the kernels that wrote them, and buffers that are no device memory.
import cupy as cp
import numpy as np
import torch
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()


def demo(n):
    # mpi4py's demo/cuda-aware-mpi/use_cupy.py
    sendbuf = cp.arange(n, dtype="i")
    recvbuf = cp.empty_like(sendbuf)
    cp.cuda.get_current_stream().synchronize()
    comm.Allreduce(sendbuf, recvbuf)
    if rank == 0:
        buf = cp.arange(100, dtype=cp.complex64)
    else:
        buf = cp.empty(100, dtype=cp.complex64)
    cp.cuda.get_current_stream().synchronize()
    comm.Bcast(buf)
    return recvbuf


def device_sync(n):
    x = cp.arange(n) * 3
    cp.cuda.Device().synchronize()
    comm.Send(x, dest=1)
    y = cp.arange(n) + 1
    cp.cuda.runtime.deviceSynchronize()
    comm.Send(y, dest=1)


def torch_sync(n):
    t = torch.randn(n).cuda()
    torch.cuda.synchronize()
    comm.Bcast(t, root=0)


def stream_sync(n):
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        x = cp.random.rand(n)
    s.synchronize()
    req = comm.Isend(x, dest=1)
    req.Wait()


def host_copy_waits(n):
    x = cp.arange(n) * 2
    total = x.get()
    comm.Send(x, dest=1)
    return total


def fresh_receive(n):
    # cupy.empty runs no kernel: nothing is pending on it.
    buf = cp.empty(n, dtype=cp.float32)
    comm.Recv(buf, source=0)
    return buf


def numpy_buffers(n):
    sendbuf = np.arange(n, dtype=np.float32) * 2
    recvbuf = np.empty_like(sendbuf)
    comm.Allreduce(sendbuf, recvbuf, op=MPI.SUM)
    t = torch.ones(n)
    comm.Bcast(t.numpy(), root=0)
    return recvbuf


def parameter(buf):
    # Made elsewhere: the caller's to order.
    comm.Allreduce(MPI.IN_PLACE, buf)


def pickled(n):
    # Lower-case methods pickle the object: CuPy copies it to the host
    # first, which waits for the stream.
    x = cp.arange(n) * 2
    return comm.allreduce(x)


def matvec(A, x, comm):
    # A copy to the host: the host has waited for the current stream.
    xh = x.get()
    comm.Bcast(xh)
    return cp.asarray(xh)


def solver(A, b, n):
    beta = cp.empty(n)
    beta[0] = 0
    r = b - matvec(A, b, comm)
    comm.Reduce(MPI.IN_PLACE, beta, root=0)
    return r
