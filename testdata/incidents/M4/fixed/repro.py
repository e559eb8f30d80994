import cupy
from cupy.cuda import nccl

rank = int(__import__("os").environ["RANK"])
world = int(__import__("os").environ["WORLD_SIZE"])
uid_a, uid_b = exchange_unique_ids()

cupy.cuda.Device(0).use()
comm_a = nccl.NcclCommunicator(world, uid_a, rank)
comm_b = nccl.NcclCommunicator(world, uid_b, rank)
N = 1 << 22

stream = cupy.cuda.Stream()
x = cupy.ones(N, dtype=cupy.float32)
y = cupy.ones(N, dtype=cupy.float32)
for _ in range(500):
    comm_a.allReduce(x.data.ptr, x.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)
    comm_b.allReduce(y.data.ptr, y.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)
stream.synchronize()
