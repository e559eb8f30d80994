# The host waits for a third stream, not for the one the first collective
# runs on: the two collectives stay unordered.
import os

import cupy
from cupy.cuda import nccl

rank = int(os.environ["RANK"])
world = int(os.environ["WORLD_SIZE"])
comm = nccl.NcclCommunicator(world, nccl.get_unique_id(), rank)
N = 1 << 20


def wrong_stream(x, y):
    first = cupy.cuda.Stream(non_blocking=True)
    second = cupy.cuda.Stream(non_blocking=True)
    other = cupy.cuda.Stream(non_blocking=True)
    comm.allReduce(x.data.ptr, x.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, first.ptr)
    other.synchronize()
    comm.allReduce(y.data.ptr, y.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, second.ptr)  # want CV201 "same communicator also runs"
