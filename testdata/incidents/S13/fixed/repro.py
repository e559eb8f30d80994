import threading

import cupy
from cupy.cuda import nccl

rank = int(__import__("os").environ["RANK"])
world = int(__import__("os").environ["WORLD_SIZE"])
uid = broadcast_unique_id()

cupy.cuda.Device(rank % 8).use()
comm = nccl.NcclCommunicator(world, uid, rank)
compute = cupy.cuda.Stream(non_blocking=True)
N = 1 << 20

with compute:
    x = cupy.arange(N, dtype=cupy.float32)
comm.allReduce(x.data.ptr, x.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, compute.ptr)
with compute:
    y = x * 2
compute.synchronize()
