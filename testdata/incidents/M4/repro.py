import threading

import cupy
from cupy.cuda import nccl

rank = int(__import__("os").environ["RANK"])
world = int(__import__("os").environ["WORLD_SIZE"])
uid_a, uid_b = exchange_unique_ids()

cupy.cuda.Device(0).use()
comm_a = nccl.NcclCommunicator(world, uid_a, rank)
comm_b = nccl.NcclCommunicator(world, uid_b, rank)
N = 1 << 22


def run(comm):
    cupy.cuda.Device(0).use()
    stream = cupy.cuda.Stream()
    x = cupy.ones(N, dtype=cupy.float32)
    for _ in range(500):
        comm.allReduce(x.data.ptr, x.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)
    stream.synchronize()


ta = threading.Thread(target=run, args=(comm_a,))
tb = threading.Thread(target=run, args=(comm_b,))
ta.start()
tb.start()
ta.join()
tb.join()
