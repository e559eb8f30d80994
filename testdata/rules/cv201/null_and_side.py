import cupy
from cupy.cuda import nccl


def step(a, n, uid, rank, world):
    comm = nccl.NcclCommunicator(world, uid, rank)
    side = cupy.cuda.Stream()
    comm.allReduce(a.data.ptr, a.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, side.ptr)
    other = cupy.cuda.Stream()
    comm.allReduce(a.data.ptr, a.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_MAX, other.ptr)  # want CV201 "no wait_stream/wait_event"
