# S13 (NVIDIA/nccl#1976): CuPy's NCCL calls run on the stream they are
# given, not on the current one. A buffer written on one stream and
# reduced on another that does not wait for it is read too early; a
# non-blocking stream is not ordered with the legacy default stream either.
import os

import cupy
from cupy.cuda import nccl

rank = int(os.environ["RANK"])
world = int(os.environ["WORLD_SIZE"])
comm = nccl.NcclCommunicator(world, nccl.get_unique_id(), rank)
compute = cupy.cuda.Stream(non_blocking=True)
side = cupy.cuda.Stream(non_blocking=True)
N = 1 << 20

with compute:
    x = cupy.arange(N, dtype=cupy.float32)
comm.allReduce(x.data.ptr, x.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, cupy.cuda.Stream.ptds.ptr)  # want CV203 "\"x\" is written on compute .* used by NcclCommunicator.allReduce here on cupy.cuda.Stream.ptds"
with compute:
    y = x * 2  # want CV203 "\"x\" is written on cupy.cuda.Stream.ptds"

buf = cupy.ones(N, dtype=cupy.float32)
comm.allReduce(buf.data.ptr, buf.data.ptr, N, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, side.ptr)  # want CV203 "\"buf\" is written on the current stream .* on side"
side.synchronize()
