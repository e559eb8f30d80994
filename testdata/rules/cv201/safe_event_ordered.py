import cupy
from cupy.cuda import nccl


def step(a, b, n, uid, rank, world):
    comm = nccl.NcclCommunicator(world, uid, rank)
    s1 = cupy.cuda.Stream()
    s2 = cupy.cuda.Stream()
    comm.allReduce(a.data.ptr, a.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, s1.ptr)
    done = cupy.cuda.Event()
    done.record(s1)
    s2.wait_event(done)
    comm.allReduce(b.data.ptr, b.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, s2.ptr)
