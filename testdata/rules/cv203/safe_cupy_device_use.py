# cupy.cuda.Device(n).use() selects the current device; it is no stream
# switch, so what the module writes and reads afterwards stays on the
# current stream. The collective's stream is a blocking one (CuPy's
# default), which CUDA orders after the legacy default stream's writes.
import os

import cupy
from cupy.cuda import nccl

rank = int(os.environ["RANK"])
world = int(os.environ["WORLD_SIZE"])
uid = nccl.get_unique_id()
cupy.cuda.Device(rank % 8).use()
comm = nccl.NcclCommunicator(world, uid, rank)
buf = cupy.ones(1 << 20, dtype=cupy.float32)
stream = cupy.cuda.Stream()
comm.allReduce(buf.data.ptr, buf.data.ptr, buf.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, stream.ptr)
stream.synchronize()
