# One communicator on two streams, with the host waiting for the first
# stream (or the whole device) before the second collective is issued:
# the second starts after the first has finished.
import os

import cupy
from cupy.cuda import nccl

rank = int(os.environ["RANK"])
world = int(os.environ["WORLD_SIZE"])
N = 1 << 20


def stream_synchronized(x, y):
    comm = nccl.NcclCommunicator(world, nccl.get_unique_id(), rank)
    first = cupy.cuda.Stream(non_blocking=True)
    second = cupy.cuda.Stream(non_blocking=True)
    comm.allReduce(x.data.ptr, x.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, first.ptr)
    first.synchronize()
    comm.allReduce(y.data.ptr, y.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, second.ptr)
    second.synchronize()


def device_synchronized(x, y):
    comm = nccl.NcclCommunicator(world, nccl.get_unique_id(), rank)
    first = cupy.cuda.Stream(non_blocking=True)
    second = cupy.cuda.Stream(non_blocking=True)
    comm.allReduce(x.data.ptr, x.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, first.ptr)
    cupy.cuda.Device().synchronize()
    comm.allReduce(y.data.ptr, y.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, second.ptr)
